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
            let (events, next): ([SecurityEventRecord], String?)
            do throws(StorageError) {
                (events, next) = try await query.page(in: store, fields: fields)
            } catch {
                throw AdminError(error)
            }
            return Responses.json(
                encoding: AdminEventPage(
                    events: events.map(AdminEventResource.init), next: next.map { path + "?" + $0 }),
                noStore: true)
        }
    }
}
