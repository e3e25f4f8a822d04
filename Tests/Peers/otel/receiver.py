#!/usr/bin/env python3
"""An OTLP/HTTP trace receiver on 127.0.0.1 for Limen Server's tracing tests: it decodes what arrives with the
OpenTelemetry project's own protobuf definitions (PyPI opentelemetry-proto), independently of swift-otel.

  python3 Tests/Peers/otel/receiver.py DIR

Writes its port to DIR/port and prints "READY <port>" once it listens. Each POST to /v1/traces
(application/x-protobuf, an ExportTraceServiceRequest) is answered 200 with an empty ExportTraceServiceResponse; each
span in it is printed as one line "SPAN <json>" and appended to DIR/spans.jsonl as JSON:
{"service", "name", "kind", "trace_id", "span_id", "parent_span_id" (hex, "" for a root), "status" ("unset", "ok",
"error"), "attributes": {key: value}}. Anything else is answered 404 (another path) or 400 (a body that does not
decode).
"""
import http.server
import json
import os
import signal
import sys
import threading

from google.protobuf.message import DecodeError
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.trace.v1.trace_pb2 import Span, Status

STATUS = {Status.STATUS_CODE_UNSET: "unset", Status.STATUS_CODE_OK: "ok", Status.STATUS_CODE_ERROR: "error"}


def value(any_value):
    """An AnyValue as plain JSON."""
    kind = any_value.WhichOneof("value")
    if kind == "array_value":
        return [value(item) for item in any_value.array_value.values]
    if kind is None:
        return None
    return getattr(any_value, kind)


def spans(request):
    """The spans of an ExportTraceServiceRequest as dictionaries."""
    for resource_spans in request.resource_spans:
        resource = {attribute.key: value(attribute.value) for attribute in resource_spans.resource.attributes}
        for scope_spans in resource_spans.scope_spans:
            for span in scope_spans.spans:
                yield {
                    "service": resource.get("service.name"),
                    "name": span.name,
                    "kind": Span.SpanKind.Name(span.kind),
                    "trace_id": span.trace_id.hex(),
                    "span_id": span.span_id.hex(),
                    "parent_span_id": span.parent_span_id.hex(),
                    "status": STATUS.get(span.status.code, "unset"),
                    "attributes": {attribute.key: value(attribute.value) for attribute in span.attributes},
                }


def main():
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    directory = sys.argv[1]
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            if self.path != "/v1/traces":
                return self.answer(404, b"")
            request = ExportTraceServiceRequest()
            try:
                request.ParseFromString(body)
            except DecodeError:
                return self.answer(400, b"")
            with lock, open(os.path.join(directory, "spans.jsonl"), "a") as file:
                for span in spans(request):
                    line = json.dumps(span, sort_keys=True)
                    file.write(line + "\n")
                    print("SPAN " + line, flush=True)
            self.answer(200, ExportTraceServiceResponse().SerializeToString())

        def answer(self, status, body):
            self.send_response(status)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format, *args):
            sys.stderr.write(format % args + "\n")

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    port = server.server_address[1]
    with open(os.path.join(directory, "port"), "w") as file:
        file.write(str(port))
    print(f"READY {port}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
