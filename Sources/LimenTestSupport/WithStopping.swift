/// Runs `body` with `resource`, then stops it whether `body` returned or threw: the shape of every `with…` helper
/// for servers and peers, so no test leaves one running because an expectation threw before a trailing stop. A
/// cancelled task's `body` ends by throwing, so the resource is stopped then too; `stop` should finish even in a
/// cancelled task.
///
/// Part of LimenTestSupport, Limen's own test support; not a stable API.
public func withStopping<Resource: Sendable, Result>(
    _ resource: Resource,
    stop: (Resource) async -> Void,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (Resource) async throws -> Result
) async throws -> Result {
    let result: Result
    do {
        result = try await body(resource)
    } catch {
        await stop(resource)
        throw error
    }
    await stop(resource)
    return result
}
