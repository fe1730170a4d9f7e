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

/**
 * One handler per catalog entry of every subscribed type: every version, since the bus rule matches
 * the type. A database consumer's handler gets the event, the transaction that records it and the
 * service's deps (`(event, em, deps)`); a stateless one the event and what it acts on.
 */
export type HandlersFor<C extends EventCatalog, T extends string, Ctx, Deps = undefined> = {
  [K in KeysOf<C, T>]: (event: CatalogEvent<C, K>, ctx: Ctx, deps: Deps) => Promise<HandlerResult> | HandlerResult;
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
export interface ConsumerDefinition<Ctx = EntityManager, C extends EventCatalog = EventCatalog, Deps = undefined> {
  service: string;
  /** The envelope `type`s routed to this consumer, every version; "all" for every Flowstate event. */
  events: readonly string[] | "all";
  catalog: C;
  /** By catalog key; typed per key at the declaration, erased here (the runner passes the validated event). */
  handlers: Readonly<Record<string, (event: never, ctx: Ctx, deps: Deps) => Promise<HandlerResult> | HandlerResult>>;
  idempotency: Idempotency;
}

interface Declaration<C extends EventCatalog, T extends string, Ctx, Deps> {
  service: string;
  /** Defaults to the production catalog; the platform's own tests pass `testEventCatalog`. */
  catalog?: C;
  events: readonly T[] | "all";
  handlers: HandlersFor<C, T, Ctx, Deps>;
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
interface ServiceDeclaration<S extends ListingService, Ctx, Deps> {
  service: S;
  handlers: HandlersFor<Production, ConsumedBy<S>, Ctx, Deps>;
  idempotency?: Idempotency;
}

/** A consumer of every event (`consumes: "all"` in the catalog): one handler takes them all. */
interface EveryEventDeclaration<S extends EveryEventService, Ctx, Deps> {
  service: S;
  handleEvery: (
    event: CatalogEvent<Production, EventKey>,
    ctx: Ctx,
    deps: Deps,
  ) => Promise<HandlerResult> | HandlerResult;
  idempotency?: Idempotency;
}

type AnyDeclaration<Ctx, Deps> =
  | Declaration<EventCatalog, string, Ctx, Deps>
  | ServiceDeclaration<ListingService, Ctx, Deps>
  | EveryEventDeclaration<EveryEventService, Ctx, Deps>;

const inCatalog = (service: string): service is ServiceName => Object.hasOwn(serviceCatalog, service);

function declare<Ctx, Deps>(d: AnyDeclaration<Ctx, Deps>): ConsumerDefinition<Ctx, EventCatalog, Deps> {
  const idempotency = d.idempotency ?? "processed-event";
  if ("handleEvery" in d) {
    const handlers = Object.fromEntries(Object.keys(eventCatalog).map((key) => [key, d.handleEvery]));
    return {
      service: d.service,
      events: "all",
      catalog: eventCatalog,
      handlers,
      idempotency,
    } as ConsumerDefinition<Ctx, EventCatalog, Deps>;
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
    handlers: d.handlers as ConsumerDefinition<Ctx, EventCatalog, Deps>["handlers"],
    idempotency,
  };
}

/**
 * Declares a service's consumer of domain events, once, with the type of the deps its handlers
 * receive (`defineConsumer<PrivacyDeps>()({…})`; the runner, `createConsumer`, is given the deps):
 * each handler is `(event, em, deps)`, `em` being the transaction that records the event id, so a
 * declaration is a module-level constant and no handler closes over anything. For a service of the
 * services catalog (contracts/src/services/catalog.ts) the event types are the catalog's
 * `consumes`: the bootstrap derives the bus rule, the queue and the DLQ from the same entry. The
 * handler map must cover every catalog version of every consumed type (the rule delivers them
 * all): a missing handler, or a new version added to the event catalog, is a compile error here,
 * never a message dead-lettered at runtime; a handler for a type not consumed is one too. A
 * consumer of every event (`consumes: "all"`) gives one `handleEvery`. The platform's own tests
 * declare consumers outside the catalog with explicit `events` (and `catalog: testEventCatalog`).
 *
 * @example
 * export const privacyConsumer = defineConsumer<PrivacyDeps>()({
 *   service: "privacy-svc",
 *   handlers: { "AccountDeleted.v1": (event, em, deps) => eraseExports(deps, em, event.data.sub), … },
 * });
 * createConsumer({ sqs, queueUrl, orm, logger, definition: privacyConsumer, deps }).start();
 */
export function defineConsumer<Deps = undefined>() {
  function define<const S extends ListingService>(
    declaration: ServiceDeclaration<S, EntityManager, Deps>,
  ): ConsumerDefinition<EntityManager, EventCatalog, Deps>;
  function define<const S extends EveryEventService>(
    declaration: EveryEventDeclaration<S, EntityManager, Deps>,
  ): ConsumerDefinition<EntityManager, EventCatalog, Deps>;
  function define<const C extends EventCatalog = Production, const T extends TypeOf<keyof C> = TypeOf<keyof C>>(
    declaration: Declaration<C, T, EntityManager, Deps>,
  ): ConsumerDefinition<EntityManager, EventCatalog, Deps>;
  function define(
    declaration: AnyDeclaration<EntityManager, Deps>,
  ): ConsumerDefinition<EntityManager, EventCatalog, Deps> {
    return declare(declaration);
  }
  return define;
}

/**
 * A consumer without a database (the gateway's cache invalidation, partner-inbound's tenant map),
 * run by `startStatelessConsumer`: applying an event twice must be harmless, since no
 * processed-event record is kept. `Ctx` is what its handlers act on (`(event, ctx)`), given when
 * it is started. Curried so the handlers' event types are inferred from the catalog entry.
 *
 * @example
 * export const revocations = defineStatelessConsumer<Caches>()({
 *   service: "edge-gateway",
 *   handlers: { "AccessRevoked.v1": (event, caches) => caches.invalidate([event.data]), … },
 * });
 */
export function defineStatelessConsumer<Ctx>() {
  function define<const S extends ListingService>(
    declaration: ServiceDeclaration<S, Ctx, undefined>,
  ): ConsumerDefinition<Ctx>;
  function define<const C extends EventCatalog = Production, const T extends TypeOf<keyof C> = TypeOf<keyof C>>(
    declaration: Declaration<C, T, Ctx, undefined>,
  ): ConsumerDefinition<Ctx>;
  function define(declaration: AnyDeclaration<Ctx, undefined>): ConsumerDefinition<Ctx> {
    return declare(declaration);
  }
  return define;
}
