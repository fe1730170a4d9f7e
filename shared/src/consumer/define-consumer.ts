import {
  type CatalogEvent,
  type EventCatalog,
  type EventKey,
  eventCatalog,
  type TypeOf,
} from "@flowstate/contracts/events/catalog";
import { type ConsumedBy, type ServiceName, serviceCatalog } from "@flowstate/contracts/services/catalog";
import type { EntityManager } from "@mikro-orm/postgresql";

type Production = typeof eventCatalog;
type KeysOf<C extends EventCatalog, T extends string> = Extract<keyof C, `${T}.v${number}`>;

/**
 * What a handler returns. Only a consumer declared with `idempotency: "handler"` returns
 * `"duplicate"` (its own write found the event already recorded); the others return nothing.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: every other handler returns Promise<void>, which undefined would refuse
export type HandlerResult = void | "duplicate";

/** One handler per catalog entry of every subscribed type: every version, since the bus rule matches the type. */
export type HandlersFor<C extends EventCatalog, T extends string, Ctx> = {
  [K in KeysOf<C, T>]: (event: CatalogEvent<C, K>, ctx: Ctx) => Promise<HandlerResult> | HandlerResult;
};

/**
 * How a database consumer turns a redelivery into a no-op:
 * - `processed-event` (default): the runner inserts the event id into `processed_event` in the
 *   handler's transaction, before the handler runs.
 * - `handler`: the handler's own write is the record (a row keyed by the event id, inserted with
 *   `ON CONFLICT DO NOTHING`) and it returns `"duplicate"` when that row already existed. For a
 *   consumer whose whole effect is one row per event (audit-svc), so a second row per event is
 *   not written.
 */
export type Idempotency = "processed-event" | "handler";

/**
 * A declared consumer: the service whose queue (`<prefix>-<stage>-<service>`, with its DLQ and its
 * bus rule) the bootstrap creates, the event types that rule routes there, and the handlers. For a
 * database consumer the handler context is the EntityManager of the transaction that records the
 * event id (`createConsumer`); a stateless one gets none.
 */
export interface ConsumerDefinition<Ctx = EntityManager, C extends EventCatalog = EventCatalog> {
  service: string;
  /** The envelope `type`s routed to this consumer, every version; "all" for every Flowstate event. */
  events: readonly string[] | "all";
  catalog: C;
  /** By catalog key; typed per key at the declaration, erased here (the runner passes the validated event). */
  handlers: Readonly<Record<string, (event: never, ctx: Ctx) => Promise<HandlerResult> | HandlerResult>>;
  idempotency: Idempotency;
}

interface Declaration<C extends EventCatalog, T extends string, Ctx> {
  service: string;
  /** Defaults to the production catalog; the platform's own tests pass `testEventCatalog`. */
  catalog?: C;
  events: readonly T[] | "all";
  handlers: HandlersFor<C, T, Ctx>;
  /** Database consumers only; `processed-event` by default. */
  idempotency?: Idempotency;
}

/** A service of the services catalog whose consumption is listed there (not "all"). */
type ListingService = {
  [S in ServiceName]: (typeof serviceCatalog)[S]["consumes"] extends "all"
    ? never
    : ConsumedBy<S> extends never
      ? never
      : S;
}[ServiceName];
/** A service of the catalog that consumes every event ("all": audit-svc). */
type EveryEventService = {
  [S in ServiceName]: (typeof serviceCatalog)[S]["consumes"] extends "all" ? S : never;
}[ServiceName];

/**
 * A Flowstate service's consumer: the event types come from the services catalog
 * (contracts/src/services/catalog.ts), never from the declaration, so the bootstrap's queue and rule
 * and the handlers cannot disagree: the handlers must cover every version of exactly those types.
 */
interface ServiceDeclaration<S extends ListingService, Ctx> {
  service: S;
  handlers: HandlersFor<Production, ConsumedBy<S>, Ctx>;
  idempotency?: Idempotency;
}

/** A consumer of every event (`consumes: "all"` in the catalog): one handler takes them all. */
interface EveryEventDeclaration<S extends EveryEventService, Ctx> {
  service: S;
  handleEvery: (event: CatalogEvent<Production, EventKey>, ctx: Ctx) => Promise<HandlerResult> | HandlerResult;
  idempotency?: Idempotency;
}

type AnyDeclaration<Ctx> =
  | Declaration<EventCatalog, string, Ctx>
  | ServiceDeclaration<ListingService, Ctx>
  | EveryEventDeclaration<EveryEventService, Ctx>;

const inCatalog = (service: string): service is ServiceName => Object.hasOwn(serviceCatalog, service);

function declare<Ctx>(d: AnyDeclaration<Ctx>): ConsumerDefinition<Ctx> {
  const idempotency = d.idempotency ?? "processed-event";
  if ("handleEvery" in d) {
    const handlers = Object.fromEntries(Object.keys(eventCatalog).map((key) => [key, d.handleEvery]));
    return {
      service: d.service,
      events: "all",
      catalog: eventCatalog,
      handlers,
      idempotency,
    } as ConsumerDefinition<Ctx>;
  }
  if (inCatalog(d.service) && "events" in d) {
    // A service's events are the catalog's: a second list here could drift from its queue's rule.
    throw new Error(`${d.service} consumes what contracts/src/services/catalog.ts lists; declare no events`);
  }
  const listed = inCatalog(d.service) ? serviceCatalog[d.service].consumes : undefined;
  const events = "events" in d ? d.events : (listed ?? []);
  return {
    service: d.service,
    events: events === "all" ? "all" : [...new Set(events)].sort(),
    catalog: ("catalog" in d ? d.catalog : undefined) ?? eventCatalog,
    handlers: d.handlers as ConsumerDefinition<Ctx>["handlers"],
    idempotency,
  };
}

/**
 * Declares a service's consumer of domain events, once. For a service of the services catalog
 * (contracts/src/services/catalog.ts) the event types are the catalog's `consumes`: the bootstrap
 * derives the bus rule, the queue and the DLQ from the same entry, and `createConsumer` runs this
 * declaration. The handler map must cover every catalog version of every consumed type (the rule
 * delivers them all): a missing handler, or a new version added to the event catalog, is a compile
 * error here, never a message dead-lettered at runtime. A handler for a type not consumed is one too.
 * A consumer of every event (`consumes: "all"`) gives one `handleEvery`. The platform's own tests
 * declare a consumer outside the catalog with explicit `events` (and `catalog: testEventCatalog`).
 *
 * @example
 * export const privacyConsumer = defineConsumer({
 *   service: "privacy-svc",
 *   handlers: { "AccountDeleted.v1": async (event, em) => forgetAccount(em, event.data.sub), … },
 * });
 */
export function defineConsumer<const S extends ListingService>(
  declaration: ServiceDeclaration<S, EntityManager>,
): ConsumerDefinition<EntityManager>;
export function defineConsumer<const S extends EveryEventService>(
  declaration: EveryEventDeclaration<S, EntityManager>,
): ConsumerDefinition<EntityManager>;
export function defineConsumer<
  const C extends EventCatalog = Production,
  const T extends TypeOf<keyof C> = TypeOf<keyof C>,
>(declaration: Declaration<C, T, EntityManager>): ConsumerDefinition<EntityManager>;
export function defineConsumer(declaration: AnyDeclaration<EntityManager>): ConsumerDefinition<EntityManager> {
  return declare(declaration);
}

/**
 * A consumer without a database (the gateway's cache invalidation, partner-inbound's tenant map),
 * run by `startStatelessConsumer`: applying an event twice must be harmless, since no
 * processed-event record is kept. `Ctx` is what its handlers act on, given when it is started.
 * Curried so the handlers' event types are still inferred from the service's catalog entry.
 *
 * @example
 * export const revocations = defineStatelessConsumer<Caches>()({
 *   service: "edge-gateway",
 *   handlers: { "AccessRevoked.v1": (event, caches) => caches.invalidate([event.data]), … },
 * });
 */
export function defineStatelessConsumer<Ctx>() {
  function define<const S extends ListingService>(declaration: ServiceDeclaration<S, Ctx>): ConsumerDefinition<Ctx>;
  function define<const C extends EventCatalog = Production, const T extends TypeOf<keyof C> = TypeOf<keyof C>>(
    declaration: Declaration<C, T, Ctx>,
  ): ConsumerDefinition<Ctx>;
  function define(declaration: AnyDeclaration<Ctx>): ConsumerDefinition<Ctx> {
    return declare(declaration);
  }
  return define;
}
