// Stand-in for the parts of Combine that Limen uses (see ../README.md). Not Apple's code: declarations only, with the
// generic shapes of https://developer.apple.com/documentation/combine.
import Foundation

/// https://developer.apple.com/documentation/combine/publisher
public protocol Publisher<Output, Failure> {
    associatedtype Output
    associatedtype Failure: Error
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure
}

/// https://developer.apple.com/documentation/combine/subscriber
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
    associatedtype Input
    associatedtype Failure: Error
}

/// https://developer.apple.com/documentation/combine/customcombineidentifierconvertible
public protocol CustomCombineIdentifierConvertible {}

/// https://developer.apple.com/documentation/combine/subscribers/completion
public enum Subscribers {
    /// `enum Completion<Failure> where Failure : Error`
    public enum Completion<Failure: Error> {
        case finished
        case failure(Failure)
    }
}

/// https://developer.apple.com/documentation/combine/cancellable
public protocol Cancellable {
    func cancel()
}

/// https://developer.apple.com/documentation/combine/anycancellable — `final class AnyCancellable`
public final class AnyCancellable: Cancellable, Hashable {
    public init(_ cancel: @escaping () -> Void) {}
    public func cancel() {}
    public func store(in set: inout Set<AnyCancellable>) {}
    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// https://developer.apple.com/documentation/combine/subject
public protocol Subject<Output, Failure>: AnyObject, Publisher {
    func send(_ value: Output)
    func send(completion: Subscribers.Completion<Failure>)
}

/// https://developer.apple.com/documentation/combine/currentvaluesubject —
/// `final class CurrentValueSubject<Output, Failure> where Failure : Error`
public final class CurrentValueSubject<Output, Failure: Error>: Subject {
    public var value: Output
    public init(_ value: Output) { self.value = value }
    public func send(_ value: Output) { self.value = value }
    public func send(completion: Subscribers.Completion<Failure>) {}
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {}
}

/// https://developer.apple.com/documentation/combine/deferred —
/// `struct Deferred<DeferredPublisher> where DeferredPublisher : Publisher`
public struct Deferred<DeferredPublisher: Publisher>: Publisher {
    public typealias Output = DeferredPublisher.Output
    public typealias Failure = DeferredPublisher.Failure
    public let createPublisher: () -> DeferredPublisher
    public init(createPublisher: @escaping () -> DeferredPublisher) { self.createPublisher = createPublisher }
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {}
}

/// https://developer.apple.com/documentation/combine/anypublisher —
/// `@frozen struct AnyPublisher<Output, Failure> where Failure : Error`
public struct AnyPublisher<Output, Failure: Error>: Publisher {
    public init<P: Publisher>(_ publisher: P) where Output == P.Output, Failure == P.Failure {}
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {}
}

/// https://developer.apple.com/documentation/combine/publishers
public enum Publishers {
    /// https://developer.apple.com/documentation/combine/publishers/handleevents
    public struct HandleEvents<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {}
    }

    /// https://developer.apple.com/documentation/combine/publishers/removeduplicates
    public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {}
    }

    /// https://developer.apple.com/documentation/combine/publishers/mapkeypath
    public struct MapKeyPath<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {}
    }

    /// https://developer.apple.com/documentation/combine/publishers/map
    public struct Map<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {}
    }
}

extension Publisher {
    /// https://developer.apple.com/documentation/combine/publisher/handleevents(receivesubscription:receiveoutput:receivecompletion:receivecancel:receiverequest:)
    public func handleEvents(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveOutput: ((Output) -> Void)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
        receiveCancel: (() -> Void)? = nil,
        receiveRequest: ((Subscribers.Demand) -> Void)? = nil
    ) -> Publishers.HandleEvents<Self> { Publishers.HandleEvents() }

    /// https://developer.apple.com/documentation/combine/publisher/map(_:)-99evh
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> { Publishers.Map() }

    /// https://developer.apple.com/documentation/combine/publisher/map(_:)-6sm0a
    public func map<T>(_ keyPath: KeyPath<Output, T>) -> Publishers.MapKeyPath<Self, T> { Publishers.MapKeyPath() }

    /// https://developer.apple.com/documentation/combine/publisher/erasetoanypublisher()
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> { AnyPublisher(self) }
}

extension Publisher where Output: Equatable {
    /// https://developer.apple.com/documentation/combine/publisher/removeduplicates()
    public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> { Publishers.RemoveDuplicates() }
}

/// https://developer.apple.com/documentation/combine/subscription
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
    func request(_ demand: Subscribers.Demand)
}

extension Subscribers {
    /// https://developer.apple.com/documentation/combine/subscribers/demand
    public struct Demand: Equatable, Hashable, Sendable {
        public static let unlimited = Demand()
    }
}

/// https://developer.apple.com/documentation/combine/passthroughsubject —
/// `final class PassthroughSubject<Output, Failure> where Failure : Error`
public final class PassthroughSubject<Output, Failure: Error>: Subject {
    public init() {}
    public func send(_ value: Output) {}
    public func send(completion: Subscribers.Completion<Failure>) {}
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {}
}

/// https://developer.apple.com/documentation/combine/future —
/// `final class Future<Output, Failure> where Failure : Error`
public final class Future<Output, Failure: Error>: Publisher {
    /// https://developer.apple.com/documentation/combine/future/promise —
    /// `typealias Promise = (Result<Output, Failure>) -> Void`
    public typealias Promise = (Result<Output, Failure>) -> Void
    /// https://developer.apple.com/documentation/combine/future/init(_:) —
    /// `init(_ attemptToFulfill: @escaping (@escaping Future<Output, Failure>.Promise) -> Void)`
    public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {}
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {}
}

extension Publisher {
    /// https://developer.apple.com/documentation/combine/publisher/sink(receivecompletion:receivevalue:)
    public func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable { AnyCancellable {} }
}

extension Publisher where Failure == Never {
    /// https://developer.apple.com/documentation/combine/publisher/sink(receivevalue:)
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable { AnyCancellable {} }
}
