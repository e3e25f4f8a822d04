import Foundation

/// nginx as the reverse proxy in front of test servers (several `limen-server` nodes, or one behind TLS);
/// `Tests/Peers/nginx/install.sh` installs the Debian package. Each test writes its own configuration into a temporary
/// folder and runs nginx in the foreground, with its pid file, logs and buffers in that folder; the system service is
/// never used.
public enum NginxProxy {
    /// The certificate chain and key of a TLS listener, as PEM files.
    public struct TLSFiles: Sendable {
        /// The server's certificate followed by its intermediates.
        public let certificateChain: String
        /// The private key of the first certificate.
        public let key: String

        /// Names the files.
        public init(certificateChain: String, key: String) {
            self.certificateChain = certificateChain
            self.key = key
        }
    }

    /// Where Debian installs nginx.
    public static let executable = URL(fileURLWithPath: "/usr/sbin/nginx")

    /// Why nginx cannot run, or `nil` when it can (always `nil` with `LIMEN_REQUIRE_PEERS=1`, so CI fails instead).
    public static var unavailableReason: String? {
        if Peers.areRequired || FileManager.default.isExecutableFile(atPath: executable.path) { return nil }
        return "\(executable.path) is missing: run Tests/Peers/nginx/install.sh"
    }

    /// The name of the response header saying which node answered (nginx's `$upstream_addr`: `127.0.0.1:port`, several
    /// separated by `, ` when a request went on to the next node).
    public static let upstreamHeader = "X-Upstream-Address"

    /// A configuration listening on 127.0.0.1:`port` (with TLS when `tls` is given) that spreads requests over the
    /// nodes on `upstreamPorts` in turn (round robin), tells each node the client's address in `X-Forwarded-For`, and
    /// names the node that answered in ``upstreamHeader``. A request goes on to the next node only when its node
    /// could not be reached or timed out, and never once a POST was sent (no `non_idempotent`): replaying a refresh
    /// or a code redemption on another node would spend it twice.
    public static func configuration(port: Int, upstreamPorts: [Int], directory: String, tls: TLSFiles? = nil)
        -> String
    {
        let servers = upstreamPorts.map { "        server 127.0.0.1:\($0);" }.joined(separator: "\n")
        let listener =
            tls.map {
                """
                listen 127.0.0.1:\(port) ssl;
                        ssl_certificate \($0.certificateChain);
                        ssl_certificate_key \($0.key);
                """
            } ?? "listen 127.0.0.1:\(port);"
        return """
            daemon off;
            worker_processes 1;
            pid \(directory)/nginx.pid;
            error_log \(directory)/nginx-error.log info;
            error_log stderr notice;
            events {
                worker_connections 64;
            }
            http {
                access_log \(directory)/nginx-access.log;
                client_body_temp_path \(directory)/client_body;
                proxy_temp_path \(directory)/proxy;
                fastcgi_temp_path \(directory)/fastcgi;
                uwsgi_temp_path \(directory)/uwsgi;
                scgi_temp_path \(directory)/scgi;
                upstream limen {
            \(servers)
                }
                server {
                    \(listener)
                    location / {
                        proxy_pass http://limen;
                        proxy_set_header Host $http_host;
                        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                        proxy_set_header X-Forwarded-Proto $scheme;
                        proxy_buffering off;
                        proxy_next_upstream error timeout;
                        add_header \(upstreamHeader) $upstream_addr always;
                    }
                }
            }

            """
    }

    /// Where ``start(port:upstreamPorts:directory:tls:)`` writes the configuration nginx runs with.
    public static func configurationPath(in directory: String) -> String {
        directory + "/nginx.conf"
    }

    /// Writes the configuration into `directory` and starts nginx; ready once its master has bound the port and
    /// started its worker.
    public static func start(port: Int, upstreamPorts: [Int], directory: String, tls: TLSFiles? = nil) async throws
        -> RunningProcess
    {
        let path = configurationPath(in: directory)
        let text = configuration(port: port, upstreamPorts: upstreamPorts, directory: directory, tls: tls)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return try await Subprocess.startService(
            executable, arguments: ["-e", "stderr", "-p", directory, "-c", path],
            readyWhen: "start worker processes", on: .standardError
        ).process
    }
}
