// The wire and JOSE types (JSON, JWS/JWK, claims, PKCE, request and response models) are part of this module's API:
// `import LimenOIDC` brings them, as it did before they moved to LimenWire.
@_exported import LimenWire
