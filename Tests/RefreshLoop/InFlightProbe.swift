import Foundation
import LimenOIDC

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The test's instrument for "at most one refresh in flight across processes": a transport that holds a non-blocking
/// `flock` on one probe file, shared by every process of the test, for as long as each refresh request is in flight.
/// A request that finds the probe locked started while another live process's refresh was in flight, and reports it
/// (`onOverlap`); the kernel releases a killed process's lock, so a request cut short by SIGKILL never counts.
struct InFlightProbe: HTTPTransport {
    /// The probe file.
    let path: String
    /// The transport that sends the requests.
    let wrapping: any HTTPTransport
    /// Called when a refresh request starts while another one is in flight.
    let onOverlap: @Sendable () -> Void

    func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPResponse {
        guard let body = request.body, String(decoding: body, as: UTF8.self).contains("grant_type=refresh_token")
        else { return try await wrapping.send(request) }
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        defer { if descriptor >= 0 { close(descriptor) } }
        if descriptor < 0 || flock(descriptor, LOCK_EX | LOCK_NB) != 0 { onOverlap() }
        return try await wrapping.send(request)
    }
}
