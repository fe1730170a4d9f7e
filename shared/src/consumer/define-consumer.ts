import { type CatalogEvent, type EventCatalog, eventCatalog, type TypeOf } from "@flowstate/contracts/events/catalog";
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

function declare<Ctx>(d: Declaration<EventCatalog, string, Ctx>): ConsumerDefinition<Ctx> {
  return {
    service: d.service,
    events: d.events === "all" ? "all" : [...new Set(d.events)].sort(),
    catalog: d.catalog ?? eventCatalog,
    handlers: d.handlers as ConsumerDefinition<Ctx>["handlers"],
    idempotency: d.idempotency ?? "processed-event",
  };
}

/**
 * Declares a service's consumer of domain events, once: the bootstrap derives the bus rule, the
 * queue and the DLQ from it (one line in deploy/local/consumers.ts), and `createConsumer` runs it.
 * The handler map must cover every catalog version of every subscribed type (the rule delivers
 * them all): a missing handler, or a new version added to the catalog, is a compile error here,
 * never a message dead-lettered at runtime. A handler for a type not subscribed is one too.
 *
 * @example
 * export const privacyConsumer = defineConsumer({
 *   service: "privacy-svc",
 *   events: ["AccountDeleted"],
 *   handlers: { "AccountDeleted.v1": async (event, em) => forgetAccount(em, event.data.sub) },
 * });
 */
export function defineConsumer<
  const C extends EventCatalog = Production,
  const T extends TypeOf<keyof C> = TypeOf<keyof C>,
>(declaration: Declaration<C, T, EntityManager>): ConsumerDefinition<EntityManager> {
  return declare(declaration as unknown as Declaration<EventCatalog, string, EntityManager>);
}

/**
 * A consumer without a database (the gateway's cache invalidation, partner-inbound's tenant map),
 * run by `startStatelessConsumer`: applying an event twice must be harmless, since no
 * processed-event record is kept. `Ctx` is what its handlers act on, given when it is started.
 * Curried so the handlers' event types are still inferred from `events`.
 *
 * @example
 * export const revocations = defineStatelessConsumer<Caches>()({
 *   service: "edge-gateway",
 *   events: ["AccessRevoked"],
 *   handlers: { "AccessRevoked.v1": (event, caches) => caches.invalidate([event.data]) },
 * });
 */
export const defineStatelessConsumer =
  <Ctx>() =>
  <const C extends EventCatalog = Production, const T extends TypeOf<keyof C> = TypeOf<keyof C>>(
    declaration: Declaration<C, T, Ctx>,
  ): ConsumerDefinition<Ctx> =>
    declare(declaration as unknown as Declaration<EventCatalog, string, Ctx>);
