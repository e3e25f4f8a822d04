import Hummingbird
import LimenServerCore
import LimenServerStorage

extension Pages {
    /// The request is unknown or older than ten minutes: the client must start again.
    static func requestExpired() -> Response {
        message(
            title: "This sign-in has expired",
            message: "Go back to the application and start signing in again.",
            status: .badRequest
        )
    }

    /// The request was started in another browser (a link to someone else's sign-in: login CSRF, session fixation).
    static func requestFromAnotherBrowser(uiLocales: String?) -> Response {
        message(
            title: "This sign-in was started in another browser",
            message:
                "For your safety it can only continue in the browser that started it. Go back to the application and start signing in again from here.",
            status: .forbidden,
            uiLocales: uiLocales
        )
    }

    /// The request was completed already (a form submitted twice).
    static func requestGone(uiLocales: String?) -> Response {
        message(
            title: "This sign-in is complete",
            message: "This request has already been answered. Go back to the application.",
            status: .badRequest,
            uiLocales: uiLocales
        )
    }

    /// The browser's session has ended.
    static func signedOut(uiLocales: String?) -> Response {
        message(
            title: "Signed out",
            message: "You are signed out in this browser.",
            status: .ok,
            isError: false,
            uiLocales: uiLocales
        )
    }

    /// Sign-up is turned off (``ServerConfiguration/signUpEnabled``).
    static func signUpOff() -> Response {
        message(
            title: "Sign-up is turned off",
            message: "New accounts cannot be created here. Ask the administrator of this service for one.",
            status: .forbidden
        )
    }

    /// A page of a flow the server does not run.
    static func pageNotFound() -> Response {
        message(title: "Page not found", message: "There is no such sign-in page here.", status: .notFound)
    }

    /// A form without the right CSRF token.
    static func forbidden() -> Response {
        message(
            title: "This form has expired",
            message: "The form could not be verified. Reload the page and try again.",
            status: .forbidden
        )
    }

    /// The page for a store failure: `503` (try again shortly) when the database is unavailable, otherwise `500`.
    static func storageFailure(_ error: StorageError) -> Response {
        error.isUnavailable ? StorageError.unavailableResponse(html: true) : serverError()
    }

    /// The store failed.
    static func serverError() -> Response {
        message(
            title: "Something went wrong",
            message: "Something went wrong on our side. Please try again.",
            status: .internalServerError
        )
    }
}
