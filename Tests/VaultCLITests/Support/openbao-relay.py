#!/usr/bin/env python3
"""Relays for the OpenBao tests, standing in for what sits between vault and a server.

  openbao-relay.py unix SOCKET HOST PORT   a local Agent or Proxy: a Unix socket whose connections go to HOST:PORT
  openbao-relay.py proxy PORTFILE LOG [HOST:PORT]
                                           an HTTP CONNECT proxy on a free loopback port (written to PORTFILE),
                                           logging each CONNECT target to LOG; with HOST:PORT, every tunnel goes
                                           there whatever it asked for (a server answering for another name)

Each prints "ready" on stdout once it listens, and runs until killed."""
import os
import socket
import sys
import threading


def pipe(source, target):
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            target.sendall(data)
    except OSError:
        pass
    finally:
        for end in (source, target):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def join(client, upstream):
    threading.Thread(target=pipe, args=(client, upstream), daemon=True).start()
    threading.Thread(target=pipe, args=(upstream, client), daemon=True).start()


def serve_unix(path, host, port):
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(16)
    print("ready", flush=True)
    while True:
        client, _ = listener.accept()
        join(client, socket.create_connection((host, int(port))))


def serve_proxy(port_file, log, forced=None):
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    with open(port_file, "w") as out:
        out.write(str(listener.getsockname()[1]))
    print("ready", flush=True)
    while True:
        client, _ = listener.accept()
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = client.recv(1)
            if not chunk:
                break
            head += chunk
        request = head.split(b"\r\n")[0].decode("ascii", "replace").split(" ")
        with open(log, "a") as out:
            out.write(" ".join(request[:2]) + "\n")
        if len(request) < 2 or request[0] != "CONNECT":
            client.sendall(b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n")
            client.close()
            continue
        host, _, port = (forced or request[1]).rpartition(":")
        upstream = socket.create_connection((host.strip("[]"), int(port)))
        client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
        join(client, upstream)


if __name__ == "__main__":
    if sys.argv[1] == "unix":
        serve_unix(*sys.argv[2:5])
    else:
        serve_proxy(*sys.argv[2:5])
