import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire

/// `GET /admin/events` (behind the admin token): the security events, newest first, filtered by `type`, `user`,
/// `client`, `since` and `until`, a page at a time; `next` is the link to the following page, `null` on the last.
enum AdminEventRoutes {
    /// The route's path.
    static let path = "/admin/events"

    /// Adds the route to the admin group, reading `store`.
    static func add(to admin: RouterGroup<some RequestContext>, store: any SecurityEventStore) {
        admin.get("events") { request, _ in
            let fields = try FormFields.query(of: request).mapError { AdminError.invalidRequest($0.description) }.get()
            let query = try AdminEventQuery(fields)
            // One more than asked: whether it exists tells whether there is a next page.
            let events: [SecurityEventRecord]
            do throws(StorageError) {
                events = try await store.securityEvents(query.filter, limit: query.limit + 1)
            } catch {
                throw AdminError(error)
            }
            let page = events.prefix(query.limit)
            let next =
                events.count > query.limit
                ? page.last.map { path + "?" + query.nextQuery(after: $0, fields: fields) } : nil
            return Responses.json(
                encoding: AdminEventPage(events: page.map(AdminEventResource.init), next: next), noStore: true)
        }
    }
}
