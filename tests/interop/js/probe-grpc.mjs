#!/usr/bin/env node
// probe-grpc: what the official A2A JavaScript SDK's gRPC server (@a2a-js/sdk 1.3.0,
// `@a2a-js/sdk/server/grpc` on @grpc/grpc-js) puts on the wire, for the C++ runner's
// known-failures list and the gRPC notes in README.md.
//
//   node probe-grpc.mjs        (about 5 s; prints one `name: fact` line per probe, exit 0
//                               unless the agent could not be started)
//
// It starts `node agent.mjs --port 0 --grpc-port 0` (the interop agent: streaming, push
// notifications and an extended card declared) as a child on 127.0.0.1, plus, in this
// process, a second SDK gRPC server whose card declares neither push notifications nor
// streaming (for the "unsupported operation" errors). Calls go through a bare grpc-js
// Client with the SDK's generated serializers (A2AService), so nothing but the bytes and
// the status is interpreted; `grpc-status-details-bin` is decoded with the SDK's own
// decodeStatus / decodeErrorInfo (@a2a-js/sdk/errors/grpc). Every call has a 5 s deadline.
// Lines:  <probe>: code=<NAME>(<n>) message="..." details=[<typeUrl> reason=R domain=D
// metadata={...}]  or, for a success, what came back.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { AgentCard, Role, TaskState, taskStateToJSON } from '@a2a-js/sdk';
import { DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { A2AService, UserBuilder, grpcService } from '@a2a-js/sdk/server/grpc';
import { decodeErrorInfo, decodeStatus } from '@a2a-js/sdk/errors/grpc';
import { TckExecutor } from './agent.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const kDeadlineMs = 5000;
const statusName = Object.fromEntries(Object.entries(grpc.status).map(([k, v]) => [v, k]));

// ---- the agent under probe ------------------------------------------------------------

function startAgent() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(here, 'agent.mjs'), '--port', '0', '--grpc-port', '0'],
      { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`agent.mjs printed no address in 15 s: ${out}`)), 15000);
    child.on('exit', (code) => reject(new Error(`agent.mjs exited (${code}): ${out}`)));
    child.stdout.on('data', (d) => {
      out += d;
      const grpcAddr = /grpc on (\S+)/.exec(out)?.[1];
      const http = /listening on (\S+)/.exec(out)?.[1];
      if (grpcAddr && http) {
        clearTimeout(timer);
        resolve({ child, grpcAddr, http });
      }
    });
  });
}

// An SDK gRPC server in this process whose card has no push notifications and no streaming.
async function startBareServer() {
  const server = new grpc.Server();
  const port = await new Promise((resolve, reject) => server.bindAsync('127.0.0.1:0',
    grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))));
  const card = AgentCard.fromJSON({
    name: 'probe-bare', description: 'no push, no streaming', version: '1.0.0',
    supportedInterfaces: [{ url: `127.0.0.1:${port}`, protocolBinding: 'GRPC', protocolVersion: '1.0' }],
    capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false },
    defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'], skills: [],
  });
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new TckExecutor());
  server.addService(A2AService, grpcService({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  return { server, addr: `127.0.0.1:${port}` };
}

// ---- raw calls ------------------------------------------------------------------------

function metadataFor(version) {
  const md = new grpc.Metadata();
  if (version !== null) md.set('a2a-version', version);
  return md;
}

const deadline = () => ({ deadline: Date.now() + kDeadlineMs });

function describeDetails(md) {
  const bins = md?.get('grpc-status-details-bin') ?? [];
  if (bins.length === 0) return 'details=none';
  try {
    const st = decodeStatus(bins[0]);
    const parts = st.details.map((d) => {
      if (!d.typeUrl.endsWith('google.rpc.ErrorInfo')) return d.typeUrl;
      const info = decodeErrorInfo(d.value);
      const meta = Object.keys(info.metadata ?? {}).length ? ` metadata=${JSON.stringify(info.metadata)}` : '';
      return `${d.typeUrl} reason=${info.reason} domain=${info.domain}${meta}`;
    });
    return `details=Status{code=${st.code} message=${JSON.stringify(st.message)} [${parts.join('; ')}]}`;
  } catch (e) {
    return `details=undecodable (${e.message})`;
  }
}

function describeError(err) {
  return `code=${statusName[err.code]}(${err.code}) message=${JSON.stringify(err.details)} ${describeDetails(err.metadata)}`;
}

// A unary call; resolves { err, res }. raw=true sends `arg` as bytes.
function unary(client, method, arg, { version = '1.0', raw = false } = {}) {
  const def = A2AService[method];
  const path = def?.path ?? method;
  const ser = raw ? (b) => b : def.requestSerialize;
  const deser = def ? def.responseDeserialize : (b) => b;
  return new Promise((resolve) => {
    client.makeUnaryRequest(path, ser, deser, arg, metadataFor(version), deadline(),
      (err, res) => resolve({ err, res }));
  });
}

// A server-streaming call; resolves { events, status, error, order }: order lists grpc-js's
// client events as they came ('metadata' = response headers, 'data'xN, 'error', 'end', 'status').
function serverStream(client, method, arg, { version = '1.0' } = {}) {
  const def = A2AService[method];
  return new Promise((resolve) => {
    const call = client.makeServerStreamRequest(def.path, def.requestSerialize, def.responseDeserialize,
      arg, metadataFor(version), deadline());
    const r = { events: [], status: null, error: null, order: [] };
    const note = (what) => {
      const last = r.order[r.order.length - 1];
      if (what === 'data' && last?.startsWith('data')) r.order[r.order.length - 1] = `data x${r.events.length}`;
      else r.order.push(what === 'data' ? 'data x1' : what);
    };
    // grpc-js emits 'status' last; give a trailing 'end'/'error' a moment to show up too.
    const done = () => setTimeout(() => resolve(r), 50);
    call.on('metadata', () => note('metadata'));
    call.on('data', (m) => { r.events.push(m); note('data'); });
    call.on('error', (e) => { r.error = e; note('error'); });
    call.on('end', () => note('end'));
    call.on('status', (st) => { r.status = st; note('status'); done(); });
  });
}

// ---- request builders (the SDK's internal ts-proto shapes, as client.mjs) ---------------

function sendRequest(text, { messageId = randomUUID(), returnImmediately = false, withMessage = true } = {}) {
  return {
    tenant: '',
    message: withMessage ? {
      messageId, contextId: '', taskId: '', role: Role.ROLE_USER,
      parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
      metadata: undefined, extensions: [], referenceTaskIds: [],
    } : undefined,
    configuration: {
      acceptedOutputModes: [], taskPushNotificationConfig: undefined, historyLength: undefined, returnImmediately,
    },
    metadata: undefined,
  };
}

const getTask = (id) => ({ tenant: '', id, historyLength: undefined });
const pushConfig = (taskId) => ({
  tenant: '', id: '', taskId, url: 'http://127.0.0.1:9/probe', token: '', authentication: undefined,
});

function line(name, text) {
  process.stdout.write(`${name}: ${text}\n`);
}

function outcome({ err, res }, ok) {
  return err ? describeError(err) : `code=OK(0) ${ok(res)}`;
}

function streamSummary(r) {
  const kinds = r.events.map((e) => {
    const p = e.payload;
    const st = p?.value?.status?.state;
    return st !== undefined ? `${p.$case}:${taskStateToJSON(st)}` : p?.$case;
  });
  const st = r.status ? `status=${statusName[r.status.code]}(${r.status.code}) details=${JSON.stringify(r.status.details)}` : 'status=none';
  const trailers = r.status?.metadata ? Object.keys(r.status.metadata.getMap()).join(',') || 'none' : 'none';
  return `events=[${kinds.join(', ')}] ${st} trailers=${trailers} client-events=[${r.order.join(', ')}]` +
    (r.error ? ` error=${describeError(r.error)}` : '');
}

// ---- main -----------------------------------------------------------------------------

async function main() {
  let agent;
  try {
    agent = await startAgent();
  } catch (e) {
    process.stderr.write(`probe-grpc: ${e.message}\n`);
    process.exit(1);
  }
  const bare = await startBareServer();
  const c = new grpc.Client(agent.grpcAddr, grpc.credentials.createInsecure());
  const b = new grpc.Client(bare.addr, grpc.credentials.createInsecure());
  line('agent', `${agent.grpcAddr} (agent.mjs; HTTP ${agent.http}); bare server ${bare.addr} (no push, no streaming)`);

  // A finished task to work on.
  const done = await unary(c, 'sendMessage', sendRequest('tck-complete-task probe'));
  const taskId = done.res?.payload?.value?.id;
  line('send-message', outcome(done, (r) => `payload=${r.payload?.$case} state=${taskStateToJSON(r.payload?.value?.status?.state)}`));

  // (a) errors
  line('error-task-not-found (GetTask unknown id)', outcome(await unary(c, 'getTask', getTask('no-such-task')), () => 'a task?'));
  line('error-task-not-cancelable (CancelTask of COMPLETED)',
    outcome(await unary(c, 'cancelTask', { tenant: '', id: taskId, metadata: undefined }), () => 'canceled?'));
  line('error-push-not-supported (CreateTaskPushNotificationConfig, card pushNotifications=false)',
    outcome(await unary(b, 'createTaskPushNotificationConfig', pushConfig('any-task')), () => 'created?'));
  line('error-push-not-supported (GetTaskPushNotificationConfig, card pushNotifications=false)',
    outcome(await unary(b, 'getTaskPushNotificationConfig', { tenant: '', taskId: 'any-task', id: 'x' }), () => 'got?'));
  line('error-streaming-not-supported (SendStreamingMessage, card streaming=false)',
    streamSummary(await serverStream(b, 'sendStreamingMessage', sendRequest('tck-stream-basic'))));
  line('error-extended-card-not-declared (GetExtendedAgentCard, card extendedAgentCard=false)',
    outcome(await unary(b, 'getExtendedAgentCard', { tenant: '' }), (r) => `card ${r.name}`));
  line('error-subscribe-terminal-task (SubscribeToTask of COMPLETED)',
    streamSummary(await serverStream(c, 'subscribeToTask', { tenant: '', id: taskId })));
  line('error-subscribe-unknown-task (SubscribeToTask unknown id)',
    streamSummary(await serverStream(c, 'subscribeToTask', { tenant: '', id: 'no-such-task' })));
  line('invalid-params (SendMessage without message)',
    outcome(await unary(c, 'sendMessage', sendRequest('x', { withMessage: false })), () => 'accepted'));
  line('invalid-params (SendMessage with empty messageId)',
    outcome(await unary(c, 'sendMessage', sendRequest('x', { messageId: '' })), () => 'accepted'));
  line('invalid-params (GetTask with empty id)', outcome(await unary(c, 'getTask', getTask('')), (r) => `task ${r.id}`));
  line('invalid-params (ListTasks pageSize=101)', outcome(await unary(c, 'listTasks', {
    tenant: '', contextId: '', status: TaskState.TASK_STATE_UNSPECIFIED, pageSize: 101, pageToken: '',
    historyLength: undefined, statusTimestampAfter: undefined, includeArtifacts: undefined,
  }), (r) => `${r.tasks.length} tasks`));
  line('invalid-params (ListTasks pageToken="%%%")', outcome(await unary(c, 'listTasks', {
    tenant: '', contextId: '', status: TaskState.TASK_STATE_UNSPECIFIED, pageSize: 10, pageToken: '%%%',
    historyLength: undefined, statusTimestampAfter: undefined, includeArtifacts: undefined,
  }), (r) => `${r.tasks.length} tasks`));
  line('malformed-protobuf (SendMessage, bytes 0xff 0xff 0xff)',
    outcome(await unary(c, 'sendMessage', Buffer.from([0xff, 0xff, 0xff]), { raw: true }), (r) => `payload=${r.payload?.$case}`));

  // (b) a2a-version metadata
  for (const v of [null, '1.0', '9.9', '1.0.0', '0.3', '1']) {
    const what = v === null ? 'absent' : `"${v}"`;
    line(`version ${what} (GetTask)`, outcome(await unary(c, 'getTask', getTask(taskId), { version: v }),
      (r) => `task ${taskStateToJSON(r.status?.state)}`));
  }
  line('version "9.9" (SendStreamingMessage)',
    streamSummary(await serverStream(c, 'sendStreamingMessage', sendRequest('tck-stream-basic'), { version: '9.9' })));

  // (c) unknown methods
  line('unknown-method (/lf.a2a.v1.A2AService/NoSuchMethod)',
    outcome(await unary(c, '/lf.a2a.v1.A2AService/NoSuchMethod', Buffer.alloc(0), { raw: true }), () => 'answered'));
  line('unknown-service (/a2a.v1.A2AService/GetTask, the pre-1.0 package name)',
    outcome(await unary(c, '/a2a.v1.A2AService/GetTask', Buffer.alloc(0), { raw: true }), () => 'answered'));

  // (d) server streaming ends
  line('stream-end (SendStreamingMessage tck-stream-basic)',
    streamSummary(await serverStream(c, 'sendStreamingMessage', sendRequest('tck-stream-basic'))));
  line('stream-end (SendStreamingMessage tck-stream-error: executor throws)',
    streamSummary(await serverStream(c, 'sendStreamingMessage', sendRequest('tck-stream-error'))));
  line('stream-end (SendStreamingMessage tck-input-required)',
    streamSummary(await serverStream(c, 'sendStreamingMessage', sendRequest('tck-input-required'))));
  line('stream-end (SendStreamingMessage tck-message-response)',
    streamSummary(await serverStream(c, 'sendStreamingMessage', sendRequest('tck-message-response hi'))));
  const lr = await unary(c, 'sendMessage', sendRequest('tck-long-running delay=800', { returnImmediately: true }));
  line('stream-end (SubscribeToTask of tck-long-running delay=800)',
    streamSummary(await serverStream(c, 'subscribeToTask', { tenant: '', id: lr.res?.payload?.value?.id })));

  c.close();
  b.close();
  bare.server.forceShutdown();
  agent.child.kill('SIGTERM');
  process.exit(0);
}

setTimeout(() => {
  process.stderr.write('probe-grpc: not finished within 60 s\n');
  process.exit(1);
}, 60000).unref();
main();
