"""The hardware simulator: stands in for every device at the lowest level the daemon touches."""
