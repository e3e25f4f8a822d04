extension LimenServerPeer {
    /// A configuration file's app schema for profile tests: two plain fields with validation, and two encrypted ones
    /// (so `GET /v1/app` says `encryption.enabled`).
    public static let profileConfiguration = """
        profile_schema:
          fields:
            nickname: {type: string, display_name: Nickname, validation: {max: 20}}
            age: {type: number, validation: {min: 0, max: 150}}
            diagnosis: {type: string, encrypted: true}
            allergies: {type: array, encrypted: true}
        """
}
