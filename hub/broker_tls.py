"""The tournament's own certificate authority for the broker's TLS listener: ``partiar hub brokerconf`` makes it
once (``ca.crt``, ``ca.key``) and the broker's certificate signed by it (``server.crt``, ``server.key``) for the
hub machine's names and addresses. Every table gets ``ca.crt`` as its ``[hub] ca_file`` and connects to
``mqtts://<hub>:8883``: it then trusts only this broker, and the table passwords never cross the hall's Wi-Fi in
plain text. The CA's key never leaves the hub machine; made again only if deleted (then every table needs the
new ``ca.crt``).
"""

from __future__ import annotations

import datetime
import ipaddress
import socket
from collections.abc import Iterable
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

CA_DAYS = 3650
SERVER_DAYS = 825
"""Validity of the broker's certificate (it is made again by each run of ``partiar hub brokerconf``)."""


def default_names() -> list[str]:
    """The names a table may reach the broker by: this machine's host name (and ``.local``, mDNS), localhost."""
    host = socket.gethostname()
    return [host, f"{host}.local", "localhost", "127.0.0.1"]


def _write_key(path: Path, key: ec.EllipticCurvePrivateKey) -> None:
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                       serialization.NoEncryption()))  # fmt: skip
    path.chmod(0o600)


def _san(names: Iterable[str]) -> x509.SubjectAlternativeName:
    entries: list[x509.GeneralName] = []
    for name in dict.fromkeys(names):
        try:
            entries.append(x509.IPAddress(ipaddress.ip_address(name)))
        except ValueError:
            entries.append(x509.DNSName(name))
    return x509.SubjectAlternativeName(entries)


def make_ca(directory: Path, names: Iterable[str]) -> tuple[Path, Path, Path]:
    """``ca.crt`` (kept if it exists with its key), and ``server.crt``/``server.key`` for ``names`` (host names
    and IP addresses the tables use) signed by it, in ``directory``; returns ``(ca.crt, server.crt,
    server.key)``."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    ca_cert_path, ca_key_path = directory / "ca.crt", directory / "ca.key"
    now = datetime.datetime.now(datetime.UTC)
    if ca_cert_path.exists() and ca_key_path.exists():
        ca_cert = x509.load_pem_x509_certificate(ca_cert_path.read_bytes())
        loaded = serialization.load_pem_private_key(ca_key_path.read_bytes(), None)
        assert isinstance(loaded, ec.EllipticCurvePrivateKey)
        ca_key = loaded
    else:
        ca_key = ec.generate_private_key(ec.SECP256R1())
        ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "partiar tournament broker CA")])
        ca_cert = (
            x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=CA_DAYS))
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
            .sign(ca_key, hashes.SHA256())
        )  # fmt: skip
        _write_key(ca_key_path, ca_key)
        ca_cert_path.write_bytes(ca_cert.public_bytes(serialization.Encoding.PEM))
    key = ec.generate_private_key(ec.SECP256R1())
    names = list(names)
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[0] if names else "partiar broker")])
    cert = (
        x509.CertificateBuilder().subject_name(subject).issuer_name(ca_cert.subject).public_key(key.public_key())
        .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=SERVER_DAYS))
        .add_extension(_san(names), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(ca_key, hashes.SHA256())
    )  # fmt: skip
    server_cert, server_key = directory / "server.crt", directory / "server.key"
    _write_key(server_key, key)
    server_cert.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return ca_cert_path, server_cert, server_key
