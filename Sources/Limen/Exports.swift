// An app that imports Limen gets every type its everyday calls take or return (`HTTPRequest`, `TokenResponse`,
// `IDTokenClaims`, …) without a second import.
@_exported import LimenOIDC
