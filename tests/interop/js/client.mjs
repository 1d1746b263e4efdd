#!/usr/bin/env node
// The official A2A JavaScript SDK's client (@a2a-js/sdk 1.3.0) driving an agent through every
// A2A 1.0 operation on one binding:
//
//   node client.mjs --url http://127.0.0.1:PORT --binding jsonrpc|rest|grpc [--token BEARER]
//
// The agent card is resolved from URL/.well-known/agent-card.json by the SDK's
// DefaultAgentCardResolver; the SDK's ClientFactory, given only the transport factory of the
// chosen binding, picks the card's interface for it. The agent must implement the tck-*
// behaviours (ACTS §11, docs/ref-agent.md). One line per check: `PASS name`,
// `FAIL name: why` or `SKIP name: why`; then `N passed, N failed, N skipped`. Exit 0 iff no
// check failed. Each call is bounded by 10 s, the whole run by 60 s.
//
// --binding grpc uses the SDK's GrpcTransportFactory (@a2a-js/sdk/client/grpc, loaded only
// then; needs @grpc/grpc-js and @bufbuild/protobuf) with insecure channel credentials: the
// card's GRPC interface url is the grpc-js target, host:port. The same checks run on every
// binding. Calls are bounded by cancelling them on an AbortSignal (the SDK transport calls
// grpc-js cancel()), and --token travels as `authorization: Bearer T` metadata, passed as
// the SDK's serviceParameters (grpc-js refuses call credentials on an insecure channel).
import { randomUUID } from 'node:crypto';
import { Role, TaskState, taskStateToJSON } from '@a2a-js/sdk';
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import { TaskNotCancelableError, TaskNotFoundError } from '@a2a-js/sdk/errors';

const kCallTimeoutMs = 10000;
const kRunTimeoutMs = 60000;
const kMaxStreamEvents = 100;
const kBindings = {
  jsonrpc: { card: 'JSONRPC', factory: async () => new JsonRpcTransportFactory({ fetchImpl: boundedFetch }) },
  rest: { card: 'HTTP+JSON', factory: async () => new RestTransportFactory({ fetchImpl: boundedFetch }) },
  grpc: {
    card: 'GRPC',
    factory: async () => {
      const { GrpcTransportFactory } = await import('@a2a-js/sdk/client/grpc');
      return new GrpcTransportFactory();  // insecure credentials, the SDK's default
    },
  },
};
// Never contacted: configs are only registered on tasks that are already final.
const kWebhookUrl = 'http://127.0.0.1:9/a2a-interop-webhook';

const counts = { passed: 0, failed: 0, skipped: 0 };

function report(kind, name, why) {
  counts[{ PASS: 'passed', FAIL: 'failed', SKIP: 'skipped' }[kind]] += 1;
  console.log(why ? `${kind} ${name}: ${why}` : `${kind} ${name}`);
}

function finish() {
  console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  process.exit(counts.failed === 0 ? 0 : 1);
}

// `--token T` adds `Authorization: Bearer T` to every request (the extended
// card requires authentication, spec §13.3).
let bearerToken = '';
// On gRPC there is no fetch to add it in: every call carries it as a service parameter.
let tokenInServiceParameters = false;

// Every HTTP exchange the SDK makes (card, calls, streams) ends within kCallTimeoutMs.
function boundedFetch(input, init = {}) {
  const timeout = AbortSignal.timeout(kCallTimeoutMs);
  const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
  if (!bearerToken) return fetch(input, { ...init, signal });
  const headers = new Headers(init.headers || (input instanceof Request ? input.headers : undefined));
  headers.set('Authorization', `Bearer ${bearerToken}`);
  return fetch(input, { ...init, headers, signal });
}

function withTimeout(promise, what) {
  let timer;
  const expired = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${kCallTimeoutMs} ms`)), kCallTimeoutMs);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

class CheckFailure extends Error {}
function expect(cond, why) {
  if (!cond) throw new CheckFailure(why);
}

const stateName = (s) => (s === undefined ? 'none' : taskStateToJSON(s));
const isTask = (r) => r && typeof r === 'object' && 'status' in r && 'id' in r && !('messageId' in r);
const isMessage = (r) => r && typeof r === 'object' && 'messageId' in r && 'role' in r;

function describeError(err) {
  const code = err?.envelopeCode ?? err?.statusCode;
  return `${err?.name ?? 'Error'}${code !== undefined ? ` (${code})` : ''}: ${err?.message ?? err}`;
}

function userMessage(text, extra = {}) {
  return {
    messageId: randomUUID(), contextId: '', taskId: '', role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
    metadata: undefined, extensions: [], referenceTaskIds: [], ...extra,
  };
}

function sendRequest(text, configuration = {}, messageExtra = {}) {
  return {
    tenant: '',
    message: userMessage(text, messageExtra),
    configuration: {
      acceptedOutputModes: [], taskPushNotificationConfig: undefined, historyLength: undefined,
      returnImmediately: false, ...configuration,
    },
    metadata: undefined,
  };
}

const callOptions = () => ({
  signal: AbortSignal.timeout(kCallTimeoutMs),
  ...(tokenInServiceParameters && bearerToken ? { serviceParameters: { authorization: `Bearer ${bearerToken}` } } : {}),
});

function textOf(parts) {
  return (parts ?? []).filter((p) => p.content?.$case === 'text').map((p) => p.content.value).join('');
}

// Collects a stream's events, bounded in count and time.
async function collect(stream, what) {
  const events = [];
  const it = stream[Symbol.asyncIterator]();
  for (;;) {
    const { value, done } = await withTimeout(it.next(), what);
    if (done) return events;
    events.push(value.payload);
    if (events.length >= kMaxStreamEvents) {
      await it.return?.();
      throw new CheckFailure(`${what}: more than ${kMaxStreamEvents} events`);
    }
  }
}

// The state a task stream ended in: the last statusUpdate's or task's.
function finalStreamState(events) {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.$case === 'statusUpdate') return e.value.status?.state;
    if (e.$case === 'task') return e.value.status?.state;
  }
  return undefined;
}

async function completedTask(client, text) {
  const r = await withTimeout(client.sendMessage(sendRequest(text), callOptions()), 'SendMessage');
  expect(isTask(r), `expected a Task, got ${JSON.stringify(r).slice(0, 200)}`);
  expect(r.status?.state === TaskState.TASK_STATE_COMPLETED, `state ${stateName(r.status?.state)}, want COMPLETED`);
  return r;
}

// ---- the checks; each returns nothing (PASS), a string (SKIP) or throws (FAIL) -------------

function checks(client, card, shared) {
  return [
    ['send-message-task', async () => {
      const t = await completedTask(client, 'tck-complete-task interop');
      expect(t.id && t.contextId, 'task id or contextId empty');
      expect(t.artifacts.length >= 1, 'no artifact');
      expect(t.artifacts[0].artifactId && t.artifacts[0].parts.length >= 1, 'artifact without artifactId or parts');
      expect(textOf(t.artifacts[0].parts).length > 0, 'artifact has no text');
      shared.completed = t;
    }],
    ['send-message-direct-message', async () => {
      const r = await withTimeout(client.sendMessage(sendRequest('tck-message-response hello'), callOptions()), 'SendMessage');
      expect(isMessage(r), `expected a Message, got ${JSON.stringify(r).slice(0, 200)}`);
      expect(r.role === Role.ROLE_AGENT, `role ${r.role}, want ROLE_AGENT`);
      expect(r.messageId && textOf(r.parts).length > 0, 'message without messageId or text');
    }],
    ['send-streaming-message', async () => {
      const events = await collect(client.sendMessageStream(sendRequest('tck-stream-basic'), callOptions()), 'SendStreamingMessage');
      expect(events.length >= 3, `only ${events.length} events`);
      expect(events[0].$case === 'task', `first event is ${events[0].$case}, want task`);
      const id = events[0].value.id;
      expect(events.slice(1).every((e) => e.$case !== 'message' && (e.value.taskId ?? e.value.id) === id),
        'a later event is a message or names another task');
      expect(events.some((e) => e.$case === 'statusUpdate'), 'no statusUpdate');
      const art = events.find((e) => e.$case === 'artifactUpdate');
      expect(art && textOf(art.value.artifact?.parts) === 'Streamed content', 'no artifactUpdate "Streamed content"');
      const last = finalStreamState(events);
      expect(last === TaskState.TASK_STATE_COMPLETED, `stream ended in ${stateName(last)}, want COMPLETED`);
    }],
    ['send-message-multi-turn', async () => {
      const first = await withTimeout(client.sendMessage(sendRequest('tck-multi-turn start'), callOptions()), 'SendMessage');
      expect(isTask(first) && first.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED,
        `turn 1: ${stateName(first?.status?.state)}, want INPUT_REQUIRED`);
      const ids = { taskId: first.id, contextId: first.contextId };
      const second = await withTimeout(client.sendMessage(sendRequest('more input', {}, ids), callOptions()), 'SendMessage');
      expect(second.id === first.id && second.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED,
        `turn 2: task ${second.id} in ${stateName(second.status?.state)}, want ${first.id} INPUT_REQUIRED`);
      const third = await withTimeout(client.sendMessage(sendRequest('done now', {}, ids), callOptions()), 'SendMessage');
      expect(third.id === first.id && third.status?.state === TaskState.TASK_STATE_COMPLETED,
        `turn 3: task ${third.id} in ${stateName(third.status?.state)}, want ${first.id} COMPLETED`);
    }],
    ['artifact-file-and-data', async () => {
      const f = await completedTask(client, 'tck-artifact-file');
      const raw = f.artifacts.flatMap((a) => a.parts).find((p) => p.content?.$case === 'raw');
      expect(raw && raw.content.value.length > 0, 'no non-empty raw part');
      expect(raw.filename === 'hello.txt' && raw.mediaType === 'text/plain',
        `raw part filename "${raw.filename}", mediaType "${raw.mediaType}"`);
      const d = await completedTask(client, 'tck-artifact-data');
      const data = d.artifacts.flatMap((a) => a.parts).find((p) => p.content?.$case === 'data');
      expect(data && typeof data.content.value === 'object' && data.content.value !== null, 'no object data part');
    }],
    ['get-task', async () => {
      expect(shared.completed, 'no task from send-message-task');
      const { id } = shared.completed;
      const full = await withTimeout(client.getTask({ tenant: '', id }, callOptions()), 'GetTask');
      expect(full.id === id && full.status?.state === TaskState.TASK_STATE_COMPLETED,
        `task ${full.id} in ${stateName(full.status?.state)}, want ${id} COMPLETED`);
      expect(full.history.length >= 1, 'no history without historyLength');
      const one = await withTimeout(client.getTask({ tenant: '', id, historyLength: 1 }, callOptions()), 'GetTask');
      expect(one.history.length === 1, `historyLength 1 gave ${one.history.length} messages`);
      const last = full.history[full.history.length - 1];
      expect(one.history[0].messageId === last.messageId, 'historyLength 1 did not keep the newest message');
    }],
    ['list-tasks', async () => {
      if (typeof client.listTasks !== 'function') return 'the SDK client has no listTasks';
      expect(shared.completed, 'no task from send-message-task');
      const { id, contextId } = shared.completed;
      const r = await withTimeout(client.listTasks({
        tenant: '', contextId, status: TaskState.TASK_STATE_UNSPECIFIED, pageSize: 10, pageToken: '',
        historyLength: undefined, statusTimestampAfter: undefined, includeArtifacts: undefined,
      }, callOptions()), 'ListTasks');
      expect(r.tasks.some((t) => t.id === id), `task ${id} not listed for its context`);
      expect(r.tasks.every((t) => t.contextId === contextId), 'a listed task has another contextId');
      expect(r.tasks.every((t) => t.artifacts.length === 0), 'artifacts listed without includeArtifacts');
      expect(r.totalSize >= r.tasks.length, `totalSize ${r.totalSize} < ${r.tasks.length} tasks`);
    }],
    ['cancel-task', async () => {
      const t = await withTimeout(client.sendMessage(sendRequest('tck-cancel interop', { returnImmediately: true }), callOptions()), 'SendMessage');
      expect(isTask(t), 'expected a Task');
      const s = t.status?.state;
      expect(s === TaskState.TASK_STATE_SUBMITTED || s === TaskState.TASK_STATE_WORKING,
        `returnImmediately gave ${stateName(s)}, want SUBMITTED or WORKING`);
      const c = await withTimeout(client.cancelTask({ tenant: '', id: t.id, metadata: undefined }, callOptions()), 'CancelTask');
      expect(c.id === t.id && c.status?.state === TaskState.TASK_STATE_CANCELED,
        `CancelTask gave ${stateName(c.status?.state)}, want CANCELED`);
      const g = await withTimeout(client.getTask({ tenant: '', id: t.id }, callOptions()), 'GetTask');
      expect(g.status?.state === TaskState.TASK_STATE_CANCELED, `GetTask after cancel: ${stateName(g.status?.state)}`);
    }],
    ['subscribe-to-task', async () => {
      const t = await withTimeout(client.sendMessage(
        sendRequest('tck-long-running delay=1500', { returnImmediately: true }), callOptions()), 'SendMessage');
      expect(isTask(t), 'expected a Task');
      const events = await collect(client.resubscribeTask({ tenant: '', id: t.id }, callOptions()), 'SubscribeToTask');
      expect(events.length >= 1 && events[0].$case === 'task', `first event is ${events[0]?.$case}, want task`);
      expect(events[0].value.id === t.id, 'first event names another task');
      const last = finalStreamState(events);
      expect(last === TaskState.TASK_STATE_COMPLETED, `stream ended in ${stateName(last)}, want COMPLETED`);
    }],
    ['push-config-create', async () => {
      expect(shared.completed, 'no task from send-message-task');
      const taskId = shared.completed.id;
      const cfg = await withTimeout(client.createTaskPushNotificationConfig({
        tenant: '', id: '', taskId, url: kWebhookUrl, token: 'interop-token',
        authentication: { scheme: 'Bearer', credentials: 'interop-secret' },
      }, callOptions()), 'CreateTaskPushNotificationConfig');
      expect(cfg.id, 'no config id assigned');
      expect(cfg.url === kWebhookUrl && cfg.taskId === taskId, `got url ${cfg.url}, taskId ${cfg.taskId}`);
      shared.push = { taskId, id: cfg.id };
    }],
    ['push-config-get', async () => {
      expect(shared.push, 'no config from push-config-create');
      const cfg = await withTimeout(client.getTaskPushNotificationConfig({ tenant: '', ...shared.push }, callOptions()),
        'GetTaskPushNotificationConfig');
      expect(cfg.id === shared.push.id && cfg.url === kWebhookUrl, `got id ${cfg.id}, url ${cfg.url}`);
    }],
    ['push-config-list', async () => {
      expect(shared.push, 'no config from push-config-create');
      const r = await withTimeout(client.listTaskPushNotificationConfig(
        { tenant: '', taskId: shared.push.taskId, pageSize: 0, pageToken: '' }, callOptions()), 'ListTaskPushNotificationConfigs');
      expect(r.configs.some((c) => c.id === shared.push.id), 'the created config is not listed');
    }],
    ['push-config-delete', async () => {
      expect(shared.push, 'no config from push-config-create');
      await withTimeout(client.deleteTaskPushNotificationConfig({ tenant: '', ...shared.push }, callOptions()),
        'DeleteTaskPushNotificationConfig');
      const r = await withTimeout(client.listTaskPushNotificationConfig(
        { tenant: '', taskId: shared.push.taskId, pageSize: 0, pageToken: '' }, callOptions()), 'ListTaskPushNotificationConfigs');
      expect(!r.configs.some((c) => c.id === shared.push.id), 'the deleted config is still listed');
    }],
    ['get-extended-agent-card', async () => {
      if (!card.capabilities?.extendedAgentCard) return 'the card does not declare capabilities.extendedAgentCard';
      const ext = await withTimeout(client.getAgentCard(callOptions()), 'GetExtendedAgentCard');
      expect(ext.name && ext.supportedInterfaces?.length >= 1, 'extended card without name or interfaces');
      expect(ext.skills?.length >= 1, 'extended card without skills');
    }],
    ['error-task-not-found', async () => {
      const id = `no-such-task-${randomUUID()}`;
      try {
        await withTimeout(client.getTask({ tenant: '', id }, callOptions()), 'GetTask');
      } catch (err) {
        expect(err instanceof TaskNotFoundError, `got ${describeError(err)}, want TaskNotFoundError`);
        return;
      }
      throw new CheckFailure(`GetTask of unknown id ${id} succeeded`);
    }],
    ['error-cancel-completed-task', async () => {
      expect(shared.completed, 'no task from send-message-task');
      try {
        await withTimeout(client.cancelTask({ tenant: '', id: shared.completed.id, metadata: undefined }, callOptions()), 'CancelTask');
      } catch (err) {
        expect(err instanceof TaskNotCancelableError, `got ${describeError(err)}, want TaskNotCancelableError`);
        return;
      }
      throw new CheckFailure('CancelTask of a COMPLETED task succeeded');
    }],
  ];
}

function parseArgs(argv) {
  const args = {};
  for (let i = 0; i < argv.length; i += 2) {
    if (argv[i] === '--url') args.url = argv[i + 1];
    else if (argv[i] === '--binding') args.binding = argv[i + 1];
    else if (argv[i] === '--token') args.token = argv[i + 1];
    else return null;
  }
  return args.url && kBindings[args.binding] ? args : null;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (!args) {
    console.error('usage: node client.mjs --url http://127.0.0.1:PORT --binding jsonrpc|rest|grpc [--token BEARER]');
    process.exit(64);
  }
  setTimeout(() => {
    report('FAIL', 'run', `not finished within ${kRunTimeoutMs} ms`);
    finish();
  }, kRunTimeoutMs).unref();

  const binding = kBindings[args.binding];
  bearerToken = args.token || '';
  tokenInServiceParameters = args.binding === 'grpc';
  let card;
  let client;
  try {
    card = await new DefaultAgentCardResolver({ fetchImpl: boundedFetch }).resolve(args.url);
    const iface = (card.supportedInterfaces ?? []).find(
      (i) => i.protocolBinding?.toUpperCase() === binding.card && i.protocolVersion === '1.0');
    expect(iface, `the card declares no ${binding.card} interface with protocolVersion 1.0`);
    client = await new ClientFactory({ transports: [await binding.factory()] }).createFromAgentCard(card);
    expect(client.protocolVersion === '1.0', `client speaks ${client.protocolVersion}`);
    report('PASS', 'agent-card');
  } catch (err) {
    report('FAIL', 'agent-card', err instanceof CheckFailure ? err.message : describeError(err));
    finish();
  }
  const shared = {};
  for (const [name, run] of checks(client, card, shared)) {
    try {
      const skip = await run();
      if (typeof skip === 'string') report('SKIP', name, skip);
      else report('PASS', name);
    } catch (err) {
      report('FAIL', name, err instanceof CheckFailure ? err.message : describeError(err));
    }
  }
  finish();
}

main();
