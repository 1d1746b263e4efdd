#!/usr/bin/env node
// The official A2A JavaScript SDK's client (@a2a-js/sdk 1.3.0) behind the contract of
// `a2a-conform client` (docs/client-conformance.md), so the runner can judge the SDK:
//
//   a2a-conform client --binding jsonrpc \
//     --cmd "node tests/interop/js/conform-client.mjs --url {target} --binding {binding} --timeout-ms 5000"
//
// stdin: one script line per operation, {"op":"get","params":{...}} (a2a-ref-client's script
// format; params are ProtoJSON, read with the SDK's own fromJSON). stdout: one JSON line per
// result: {"op":..,"result":..}, {"op":"stream","event":..}, {"op":"stream","streamError":..},
// {"op":"stream","end":true}, {"op":..,"error":{"kind","code","message"}}. Exit 0 when every
// operation succeeded, 1 when one failed (agent error or timeout), 2 when the connection broke
// or the card was unusable, 64 on usage errors. The adapter only translates: what the SDK
// accepts, rejects or throws is what the runner sees.
import { createInterface } from 'node:readline';
import {
  CancelTaskRequest, DeleteTaskPushNotificationConfigRequest, GetTaskPushNotificationConfigRequest,
  GetTaskRequest, ListTaskPushNotificationConfigsRequest, ListTaskPushNotificationConfigsResponse,
  ListTasksRequest, ListTasksResponse, Message, SendMessageRequest, StreamResponse, SubscribeToTaskRequest,
  Task, TaskPushNotificationConfig, AgentCard,
} from '@a2a-js/sdk';
import {
  ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory, RestTransportFactory,
} from '@a2a-js/sdk/client';
import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';

const kMaxStreamEvents = 1000;
const kExit = { ok: 0, failed: 1, broken: 2, usage: 64 };
let timeoutMs = 30000;

function parseArgs(argv) {
  const args = {};
  for (let i = 0; i < argv.length; i += 2) {
    if (argv[i] === '--url') args.url = argv[i + 1];
    else if (argv[i] === '--binding') args.binding = argv[i + 1];
    else if (argv[i] === '--timeout-ms') args.timeoutMs = Number(argv[i + 1]);
    else return null;
  }
  if (args.timeoutMs !== undefined && !(args.timeoutMs > 0)) return null;
  return args.url && (args.binding === 'jsonrpc' || args.binding === 'rest') ? args : null;
}

function print(obj) {
  process.stdout.write(`${JSON.stringify(obj)}\n`);
}

// Every HTTP exchange the SDK makes ends within the operation deadline.
function boundedFetch(input, init = {}) {
  const timeout = AbortSignal.timeout(timeoutMs);
  return fetch(input, { ...init, signal: init.signal ? AbortSignal.any([init.signal, timeout]) : timeout });
}

// The A2A error code of an SDK error: JSON-RPC errors carry it (envelopeCode); REST errors
// carry the ErrorInfo reason the SDK read from the google.rpc.Status (TASK_NOT_FOUND).
function a2aCode(err) {
  if (typeof err?.envelopeCode === 'number') return err.envelopeCode;
  if (err?.transport === 'rest' && typeof err.reason === 'string') return A2A_ERROR_CODE[err.reason];
  return undefined;
}

// An SDK error as the contract's {kind, code, message}: `agent` when the agent's error object
// (with its A2A code) reached us, `timeout` for an expired deadline, else `transport`.
function errorObject(err) {
  const code = a2aCode(err) ?? a2aCode(err?.cause);
  const out = { kind: 'transport', message: String(err?.message ?? err) };
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError' || err?.cause?.name === 'TimeoutError') {
    out.kind = 'timeout';
  } else if (typeof code === 'number') {
    out.kind = 'agent';
    out.code = code;
  }
  return out;
}

const severity = (e) => (e.kind === 'transport' ? kExit.broken : kExit.failed);

function withTimeout(promise, deadline) {
  let timer;
  const expired = new Promise((_, reject) => {
    timer = setTimeout(() => {
      const e = new Error(`no answer within ${timeoutMs} ms`);
      e.name = 'TimeoutError';
      reject(e);
    }, Math.max(0, deadline - Date.now()));
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

// Unary operations: the SDK call and how its answer is printed (ProtoJSON via toJSON).
const kUnary = {
  send: [(c, p, o) => c.sendMessage(SendMessageRequest.fromJSON(p), o),
    (r) => ('messageId' in r && 'role' in r ? { message: Message.toJSON(r) } : { task: Task.toJSON(r) })],
  get: [(c, p, o) => c.getTask(GetTaskRequest.fromJSON(p), o), (r) => Task.toJSON(r)],
  list: [(c, p, o) => c.listTasks(ListTasksRequest.fromJSON(p), o), (r) => ListTasksResponse.toJSON(r)],
  cancel: [(c, p, o) => c.cancelTask(CancelTaskRequest.fromJSON(p), o), (r) => Task.toJSON(r)],
  'push-create': [(c, p, o) => c.createTaskPushNotificationConfig(TaskPushNotificationConfig.fromJSON(p), o),
    (r) => TaskPushNotificationConfig.toJSON(r)],
  'push-get': [(c, p, o) => c.getTaskPushNotificationConfig(GetTaskPushNotificationConfigRequest.fromJSON(p), o),
    (r) => TaskPushNotificationConfig.toJSON(r)],
  'push-list': [(c, p, o) => c.listTaskPushNotificationConfig(ListTaskPushNotificationConfigsRequest.fromJSON(p), o),
    (r) => ListTaskPushNotificationConfigsResponse.toJSON(r)],
  'push-delete': [(c, p, o) => c.deleteTaskPushNotificationConfig(DeleteTaskPushNotificationConfigRequest.fromJSON(p), o),
    () => null],
  card: [(c, p, o) => c.getAgentCard(o), (r) => AgentCard.toJSON(r)],
};
const kStreams = {
  stream: (c, p, o) => c.sendMessageStream(SendMessageRequest.fromJSON(p), o),
  subscribe: (c, p, o) => c.resubscribeTask(SubscribeToTaskRequest.fromJSON(p), o),
};

async function runUnary(client, op, params) {
  const deadline = Date.now() + timeoutMs;
  const [call, show] = kUnary[op];
  try {
    const r = await withTimeout(call(client, params, { signal: AbortSignal.timeout(timeoutMs) }), deadline);
    print({ op, result: show(r) });
    return kExit.ok;
  } catch (err) {
    const e = errorObject(err);
    print({ op, error: e });
    return severity(e);
  }
}

// A stream error after events is the SDK surfacing an error event (it throws and ends the
// stream): printed as streamError when it carries the agent's code.
async function runStream(client, op, params) {
  const deadline = Date.now() + timeoutMs;
  let events = 0;
  let it;
  try {
    it = kStreams[op](client, params, { signal: AbortSignal.timeout(timeoutMs) })[Symbol.asyncIterator]();
    for (;;) {
      const { value, done } = await withTimeout(it.next(), deadline);
      if (done) break;
      print({ op, event: StreamResponse.toJSON(value) });
      if (++events >= kMaxStreamEvents) throw new Error(`more than ${kMaxStreamEvents} events`);
    }
    print({ op, end: true });
    return kExit.ok;
  } catch (err) {
    it?.return?.().catch(() => {});
    const e = errorObject(err);
    if (events > 0 && e.kind === 'agent') print({ op, streamError: { code: e.code, message: e.message } });
    else print({ op, error: e });
    return severity(e);
  }
}

async function connect(args) {
  const fetchImpl = boundedFetch;
  const card = await withTimeout(new DefaultAgentCardResolver({ fetchImpl }).resolve(args.url), Date.now() + timeoutMs);
  const factory = args.binding === 'rest' ? new RestTransportFactory({ fetchImpl }) : new JsonRpcTransportFactory({ fetchImpl });
  return new ClientFactory({ transports: [factory] }).createFromAgentCard(card);
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (!args) {
    console.error('usage: node conform-client.mjs --url URL --binding jsonrpc|rest [--timeout-ms N]');
    process.exit(kExit.usage);
  }
  timeoutMs = args.timeoutMs ?? timeoutMs;
  let client;
  let code = kExit.ok;
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const text of lines) {
    if (!text.trim()) continue;
    let line;
    try {
      line = JSON.parse(text);
    } catch {
      console.error(`conform-client: script line is not JSON: ${text.slice(0, 200)}`);
      process.exit(kExit.usage);
    }
    const { op, params = {} } = line;
    if (!kUnary[op] && !kStreams[op]) {
      print({ op, error: { kind: 'usage', message: `unknown op ${op}` } });
      process.exit(kExit.usage);
    }
    if (!client) {
      try {
        client = await connect(args);
      } catch (err) {
        print({ op, error: { ...errorObject(err), kind: 'transport' } });
        process.exit(kExit.broken);
      }
    }
    const c = kStreams[op] ? await runStream(client, op, params) : await runUnary(client, op, params);
    code = Math.max(code, c);
  }
  process.exit(code);
}

main();
