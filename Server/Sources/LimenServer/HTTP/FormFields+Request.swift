import Foundation
import HTTPTypes
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire
import NIOCore

extension FormFields {
    /// The form body of `request`: refused when its `Content-Type` is not the form media type, when it is larger than
    /// ``FormFields/maximumSize``, or when a field repeats (unless `allowingRepeats`).
    static func read(from request: Request, allowingRepeats: Bool = false) async -> Result<FormFields, FormRefusal> {
        guard isForm(contentType: request.headers[.contentType]) else { return .failure(.unsupportedMediaType) }
        var request = request
        guard let body = try? await request.collectBody(upTo: maximumSize) else { return .failure(.tooLarge) }
        return Result { () throws(FormRefusal) in try parse(String(buffer: body), allowingRepeats: allowingRepeats) }
    }

    /// The fields of the query of `request`: refused when a field repeats (unless `allowingRepeats`).
    static func query(of request: Request, allowingRepeats: Bool = false) -> Result<FormFields, FormRefusal> {
        Result { () throws(FormRefusal) in try parse(request.uri.query ?? "", allowingRepeats: allowingRepeats) }
    }
}

extension FormRefusal {
    /// The HTTP status that answers it.
    var status: HTTPResponse.Status {
        switch self {
        case .unsupportedMediaType: .unsupportedMediaType
        case .tooLarge: .contentTooLarge
        case .repeated: .badRequest
        }
    }
}
