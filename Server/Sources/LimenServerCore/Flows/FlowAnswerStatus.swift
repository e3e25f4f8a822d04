/// How a flow answer stands: going on, or refused for one of these reasons. The shell answers each with its HTTP
/// status (`FlowAnswerStatus+HTTP`); the flow code never names one.
package enum FlowAnswerStatus: Sendable, Equatable {
    /// The interaction goes on, or succeeded (200).
    case ok
    /// The request or a submitted value is not acceptable (400).
    case invalid
    /// The credentials or token do not prove who asks (401).
    case unauthenticated
    /// Who asks may not do this (403).
    case forbidden
    /// No flow or interaction has this name (404).
    case notFound
    /// The interaction has moved on since the submission's node (409).
    case conflict
    /// The interaction has ended or expired (410).
    case gone
    /// The body is not of a media type the flow reads (415).
    case unsupportedMediaType
    /// Too many attempts: wait, then try again (429).
    case tooManyRequests
    /// Something the flow needs is out of reach for now (503).
    case unavailable
    /// The server failed (500).
    case serverError
}
