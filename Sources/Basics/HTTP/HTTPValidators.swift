/// What a server said identifies the version it sent (`ETag`, `Last-Modified`): asked for again
/// with the next request, so that an unchanged answer comes back as `304 Not Modified`.
public struct HTTPValidators: Codable, Sendable, Equatable {
    public var etag: String?
    public var lastModified: String?

    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    public var isEmpty: Bool { etag == nil && lastModified == nil }
}
