"""The contract between a table unit (``device/``) and the tournament hub (``hub/``) over MQTT, named once: the
topics and the payload envelope (``topics``), the pairing and its acknowledgement (``pairing``), the chief referee's
round commands with their round's state (``rounds``), broker URLs, clients and why a connection fails (``broker``).
Both sides import it; it imports neither (``tests/test_layering.py``)."""
