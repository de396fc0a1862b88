#!/usr/bin/env python3
"""NATS credentials for tests/cluster/cluster_test.sh, without `nk` or `nsc`.

  nats_auth.py nkey SEED_FILE
      writes a new user nkey seed (SU...) to SEED_FILE (mode 0600) and prints
      its public key (U...), the name nats-server's configuration gives the
      user.
  nats_auth.py operator DIR
      makes an operator, a system account, an account with JetStream and a
      user in it: writes DIR/auth.conf (the server's `operator`,
      `system_account`, `resolver: MEMORY` and `resolver_preload`) and DIR/user.creds (the user's JWT and seed, the
      file `--creds` reads).

Ed25519 keys and signatures come from `openssl`; the encodings (nkeys:
base32 of a prefix byte, the key and a CRC-16/XMODEM; JWTs: base64url of a
header, claims and an ed25519-nkey signature) are those of nkeys and
nats-io/jwt v2.
"""
import base64
import json
import os
import subprocess
import sys
import tempfile
import time

PREFIX_SEED = 18 << 3
PREFIX = {"operator": 14 << 3, "account": 0, "user": 20 << 3}
# PKCS#8 DER of an Ed25519 private key: this header, then the 32-byte seed.
PKCS8 = bytes.fromhex("302e020100300506032b657004220420")


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


class Key:
    def __init__(self, kind):
        self.seed = os.urandom(32)
        prefix = PREFIX[kind]
        pub_der = subprocess.run(
            ["openssl", "pkey", "-inform", "DER", "-pubout", "-outform", "DER"],
            input=PKCS8 + self.seed, capture_output=True, check=True).stdout
        self.public = encode(bytes([prefix]) + pub_der[-32:])
        self.seed_text = encode(bytes([PREFIX_SEED | (prefix >> 5), (prefix & 31) << 3]) + self.seed)

    def sign(self, message):
        # `pkeyutl -rawin` (Ed25519 signs the whole message) reads a file.
        with tempfile.TemporaryDirectory() as d:
            key, msg = os.path.join(d, "key.der"), os.path.join(d, "msg")
            write_private(key, PKCS8 + self.seed)
            write_private(msg, message)
            return subprocess.run(
                ["openssl", "pkeyutl", "-sign", "-inkey", key, "-keyform", "DER", "-rawin",
                 "-in", msg], capture_output=True, check=True).stdout


def b64url(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def jwt(issuer, subject, name, nats):
    claims = {"jti": b64url(os.urandom(24)), "iat": int(time.time()), "iss": issuer.public,
              "name": name, "sub": subject.public, "nats": dict(nats, version=2)}
    head = b64url(json.dumps({"typ": "JWT", "alg": "ed25519-nkey"}).encode())
    body = b64url(json.dumps(claims).encode())
    signed = (head + "." + body).encode()
    return head + "." + body + "." + b64url(issuer.sign(signed))


def write_private(path, data):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.write(fd, data.encode() if isinstance(data, str) else data)
    os.close(fd)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "nkey":
        key = Key("user")
        write_private(sys.argv[2], key.seed_text + "\n")
        print(key.public)
    elif len(sys.argv) == 3 and sys.argv[1] == "operator":
        out = sys.argv[2]
        op, sys_acct, acct, user = Key("operator"), Key("account"), Key("account"), Key("user")
        unlimited = {k: -1 for k in ("subs", "data", "payload", "imports", "exports", "conn",
                                     "leaf", "mem_storage", "disk_storage", "streams",
                                     "consumer")}
        unlimited["wildcards"] = True
        op_jwt = jwt(op, op, "mty-test-operator", {"type": "operator"})
        acct_jwt = jwt(op, acct, "mty", {"type": "account", "limits": unlimited,
                                         "default_permissions": {"pub": {}, "sub": {}}})
        # JetStream needs a system account.
        sys_jwt = jwt(op, sys_acct, "SYS", {"type": "account", "limits": {
            k: -1 for k in ("subs", "data", "payload", "imports", "exports", "conn", "leaf")},
            "default_permissions": {"pub": {}, "sub": {}}})
        user_jwt = jwt(acct, user, "mty-user", {"type": "user", "pub": {}, "sub": {},
                                                "subs": -1, "data": -1, "payload": -1})
        with open(os.path.join(out, "auth.conf"), "w") as f:
            f.write('operator: "%s"\nsystem_account: %s\nresolver: MEMORY\n'
                    'resolver_preload: {\n  %s: "%s"\n  %s: "%s"\n}\n'
                    % (op_jwt, sys_acct.public, sys_acct.public, sys_jwt, acct.public, acct_jwt))
        write_private(os.path.join(out, "user.creds"),
                      "-----BEGIN NATS USER JWT-----\n%s\n------END NATS USER JWT------\n\n"
                      "-----BEGIN USER NKEY SEED-----\n%s\n------END USER NKEY SEED------\n"
                      % (user_jwt, user.seed_text))
    else:
        sys.exit(__doc__)


main()
