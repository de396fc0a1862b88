#!/usr/bin/env python3
"""A NATS user nkey for tests/cluster/cluster_test.sh, without the `nk` tool.

Usage: nkey.py SEED_FILE   writes a new user seed (SU...) to SEED_FILE (mode
0600) and prints its public key (U...), the name nats-server's configuration
gives the user. The Ed25519 public key comes from `openssl pkey`; the
encoding (base32 of a prefix byte, the key and a CRC-16/XMODEM) is nkeys'.
"""
import base64
import os
import subprocess
import sys

PREFIX_SEED = 18 << 3
PREFIX_USER = 20 << 3


def crc16(data):
    crc = 0
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def encode(raw):
    return base64.b32encode(raw + crc16(raw).to_bytes(2, "little")).decode().rstrip("=")


def main():
    seed = os.urandom(32)
    # PKCS#8 DER of an Ed25519 private key: a fixed header, then the seed.
    der = bytes.fromhex("302e020100300506032b657004220420") + seed
    pub_der = subprocess.run(
        ["openssl", "pkey", "-inform", "DER", "-pubout", "-outform", "DER"],
        input=der, capture_output=True, check=True).stdout
    pub = pub_der[-32:]
    text = encode(bytes([PREFIX_SEED | (PREFIX_USER >> 5), (PREFIX_USER & 31) << 3]) + seed)
    fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.write(fd, (text + "\n").encode())
    os.close(fd)
    print(encode(bytes([PREFIX_USER]) + pub))


main()
