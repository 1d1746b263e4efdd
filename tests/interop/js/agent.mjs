#!/usr/bin/env node
// js-agent: an A2A 1.0 agent built on the official JavaScript SDK (@a2a-js/sdk 1.3.0),
// the interop partner that a2a-conform and a2a-ref-client are checked against.
//
//   node agent.mjs [--port N] [--grpc-port G]
//     --port 0, the default, picks a free port; --grpc-port 0 picks a free one for gRPC,
//     without --grpc-port there is no gRPC server (and @grpc/grpc-js is not even loaded).
//
// Serves on 127.0.0.1 only:
//   GET  /.well-known/agent-card.json   agentCardHandler
//   POST /a2a/jsonrpc                   jsonRpcHandler  (card interface "JSONRPC",   version 1.0)
//   *    /a2a/rest/...                  restHandler     (card interface "HTTP+JSON", version 1.0)
//   gRPC 127.0.0.1:G (--grpc-port)      grpcService     (card interface "GRPC",      version 1.0,
//        the SDK's lf.a2a.v1.A2AService, insecure credentials; url "127.0.0.1:G", no scheme)
// All three share one DefaultRequestHandler (one task store, one executor). Stdout: with
// --grpc-port first `js-agent grpc on 127.0.0.1:G`, then always, as the last line once
// everything listens, `js-agent listening on http://127.0.0.1:PORT`. The SDK's own logging
// goes to stderr. SIGTERM/SIGINT close the servers (gRPC: forceShutdown), exit 0.
//
// Behaviours, chosen like a2a-ref-agent's (docs/ref-agent.md, ACTS §11): the first text
// part's prefix (ending the word), else the messageId's prefix; longest prefix wins.
// Everything below is published on the SDK's ExecutionEventBus; the SDK's
// DefaultRequestHandler turns it into replies, streams, task-store state and pushes.
//   (none)                 task (SUBMITTED), WORKING, text artifact "Echo: <text>", COMPLETED
//   tck-complete-task      same shape, artifact "Task completed: <text>", reply "Task completed."
//   tck-message-response   one Message event (ROLE_AGENT), no task
//   tck-input-required     INPUT_REQUIRED + status message; any follow-up completes it
//   tck-multi-turn         INPUT_REQUIRED per turn until a follow-up whose first word is "done"
//   tck-cancel             WORKING; execute() waits until cancelTask publishes CANCELED (a
//                          blocking send waits as long: the SDK has no early return; after 10
//                          minutes uncanceled the executor gives up, the task stays WORKING)
//   tck-long-running       WORKING, after 1000 ms (delay=NNN in the text, max 60000) an
//                          artifact and COMPLETED; cancel aborts the wait
//   tck-stream-basic       artifactUpdate "Streamed content" (lastChunk), COMPLETED
//   tck-stream-chunked     3 artifactUpdates of one artifactId (append false/true/true,
//                          lastChunk on the last), COMPLETED
//   tck-artifact-text      text artifact "Generated text content", COMPLETED
//   tck-artifact-file      part {raw, filename "hello.txt", mediaType "text/plain"}, COMPLETED
//   tck-artifact-file-url  part {url, filename "report.pdf", mediaType "application/pdf"}
//   tck-artifact-data      part {data:{...}, mediaType "application/json"}, COMPLETED
//   tck-task-failure       FAILED + status message
//   tck-reject-task        REJECTED + status message
//   tck-auth-required      AUTH_REQUIRED + status message; any follow-up completes it
//   tck-stream-error       artifact, then execute() throws: the SDK has no API for an
//                          executor to emit a mid-stream error event, it turns the exception
//                          into a FAILED status ("Agent execution error: ...") instead.
//   tck-stream-many        count=N artifactUpdates of one artifactId (texts "chunk 0".., append
//                          from the second, lastChunk on the last; default 10, max 10000),
//                          COMPLETED: the events of a2a-ref-agent's, for bench/http_bench.cpp
// A follow-up turn (message with the task's taskId) starts with the task event in WORKING, as
// the SDK requires a task or message as the first event of every execution.
// SDK usage that differs from its README examples, and why:
//   the card handler gets AgentCard.toJSON(card), not the request handler: agentCardHandler
//     JSON.stringify()s what the provider returns, and the handler's card is the SDK's
//     internal shape (oneofs as {$case, value}), which is not ProtoJSON.
//   keepBusAliveStates = [INPUT_REQUIRED]: by default the SDK also keeps a task's event bus
//     open at AUTH_REQUIRED, so a stream entering AUTH_REQUIRED never ends (it waits for
//     out-of-band credentials). Like a2a-ref-agent, this agent ends it there.
//   The extended card goes to any caller: the card declares no security scheme.
//   gRPC: the SDK validates the `a2a-version` metadata against the card's GRPC interfaces
//     (a missing one counts as "0.3"), so the GRPC interface must be in the card the request
//     handler holds, not only in the published one. The service is added to the grpc-js
//     server after bindAsync (the card needs the bound port); grpc-js 1.14 allows that.
import { randomUUID } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { AgentCard, Role, TaskState } from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultPushNotificationSender,
  DefaultRequestHandler,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
} from '@a2a-js/sdk/server';
import {
  UserBuilder,
  agentCardHandler,
  jsonRpcHandler,
  restHandler,
} from '@a2a-js/sdk/server/express';

const kName = 'js-agent';
const kJsonRpcPath = '/a2a/jsonrpc';
const kRestPath = '/a2a/rest';
const kLongRunningMs = 1000;
const kMaxDelayMs = 60000;
// A tck-cancel task nobody cancels stops waiting after this (it stays WORKING in the store).
const kCancelWaitMs = 10 * 60 * 1000;

export const kBehaviours = [
  ['echo', '', 'no prefix: completes the task, echoing the text in a reply and an artifact'],
  ['complete-task', 'tck-complete-task', 'completes the task with a reply and one text artifact'],
  ['message-response', 'tck-message-response', 'answers with a direct Message, no task'],
  ['input-required', 'tck-input-required', 'INPUT_REQUIRED; any follow-up completes it'],
  ['multi-turn', 'tck-multi-turn', "INPUT_REQUIRED until a follow-up whose first word is 'done'"],
  ['cancel', 'tck-cancel', 'stays WORKING until canceled'],
  ['long-running', 'tck-long-running', 'completes after 1000 ms (delay=NNN in the text overrides)'],
  ['stream-basic', 'tck-stream-basic', 'artifactUpdate "Streamed content", then COMPLETED'],
  ['stream-chunked', 'tck-stream-chunked', 'one artifact in 3 chunks, then COMPLETED'],
  ['artifact-text', 'tck-artifact-text', 'completes with a text artifact'],
  ['artifact-file', 'tck-artifact-file', 'completes with an inline file artifact'],
  ['artifact-file-url', 'tck-artifact-file-url', 'completes with a file URL artifact'],
  ['artifact-data', 'tck-artifact-data', 'completes with a structured data artifact'],
  ['task-failure', 'tck-task-failure', 'FAILED with a status message'],
  ['reject-task', 'tck-reject-task', 'REJECTED with a status message'],
  ['auth-required', 'tck-auth-required', 'AUTH_REQUIRED; any follow-up completes it'],
  ['stream-error', 'tck-stream-error', 'an artifact, then an executor error (FAILED)'],
  ['stream-many', 'tck-stream-many', 'count=N chunks (default 10, max 10000) of one artifact, then COMPLETED'],
];

// ---- behaviour selection -------------------------------------------------------------

function isNameChar(c) {
  return /[A-Za-z0-9_-]/.test(c);
}

function behaviourFromPrefix(s, requireWordEnd) {
  const t = s.trimStart();
  let best = null;
  for (const [name, prefix] of kBehaviours) {
    if (!prefix || !t.startsWith(prefix)) continue;
    if (requireWordEnd && t.length > prefix.length && isNameChar(t[prefix.length])) continue;
    if (!best || prefix.length > best.prefix.length) best = { name, prefix };
  }
  return best ? best.name : null;
}

function firstText(message) {
  for (const p of message?.parts ?? []) {
    if (p.content?.$case === 'text') return p.content.value;
  }
  return '';
}

function selectBehaviour(message) {
  const text = firstText(message);
  return (
    behaviourFromPrefix(text, true) ??
    behaviourFromPrefix(message?.messageId ?? '', false) ??
    'echo'
  );
}

function firstWord(text) {
  const m = /^\s*([A-Za-z0-9]+)/.exec(text);
  return m ? m[1].toLowerCase() : '';
}

function countOf(text) {
  const m = /count=(\d+)/.exec(text);
  const n = m ? Number(m[1]) : 10;
  return Math.min(Math.max(n, 1), 10000);
}

function delayOf(text) {
  const m = /delay=(\d+)/.exec(text);
  const ms = m ? Number(m[1]) : kLongRunningMs;
  return Math.min(Math.max(ms, 0), kMaxDelayMs);
}

// ---- SDK object builders (the SDK's internal ts-proto shapes) -------------------------

function part(content, extra = {}) {
  return { content, metadata: undefined, filename: '', mediaType: '', ...extra };
}
const textPart = (t) => part({ $case: 'text', value: t });

function artifact(name, parts, artifactId = randomUUID()) {
  return { artifactId, name, description: '', parts, metadata: undefined, extensions: [] };
}

function agentMessage(text, taskId, contextId) {
  return {
    messageId: randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts: [textPart(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

const now = () => new Date().toISOString();

// ---- turn plans (mirror peers/a2a-ref-agent/behaviour.cpp) ----------------------------

function complete(art, reply) {
  return { chunks: [{ artifact: art, append: false, lastChunk: true }], state: TaskState.TASK_STATE_COMPLETED, reply };
}

function statusOnly(state, reply) {
  return { chunks: [], state, reply };
}

function planArtifact(name) {
  switch (name) {
    case 'artifact-file':
      return complete(
        artifact('file', [part({ $case: 'raw', value: Buffer.from('Hello from js-agent.\n') },
          { filename: 'hello.txt', mediaType: 'text/plain' })]),
        'Here is the file.');
    case 'artifact-file-url':
      return complete(
        artifact('file-url', [part({ $case: 'url', value: 'https://example.com/js-agent/report.pdf' },
          { filename: 'report.pdf', mediaType: 'application/pdf' })]),
        'Here is the file URL.');
    case 'artifact-data':
      return complete(
        artifact('data', [part({ $case: 'data', value: { kind: 'tck-artifact-data', values: [1, 2, 3], ok: true } },
          { mediaType: 'application/json' })]),
        'Here is the data.');
    default:
      return complete(artifact('text', [textPart('Generated text content')]), 'Here is the text.');
  }
}

function planChunked() {
  const id = randomUUID();
  const texts = ['Chunk one. ', 'Chunk two. ', 'Chunk three.'];
  const chunks = texts.map((t, i) => ({
    artifact: artifact('chunked', [textPart(t)], id),
    append: i > 0,
    lastChunk: i === texts.length - 1,
  }));
  return { chunks, state: TaskState.TASK_STATE_COMPLETED, reply: '' };
}

function planMany(text) {
  const id = randomUUID();
  const n = countOf(text);
  const chunks = [];
  for (let i = 0; i < n; i++) {
    chunks.push({ artifact: artifact('many', [textPart(`chunk ${i}`)], id), append: i > 0, lastChunk: i === n - 1 });
  }
  return { chunks, state: TaskState.TASK_STATE_COMPLETED, reply: '' };
}

function planTurn(name, turn, text) {
  switch (name) {
    case 'message-response':
    case 'complete-task':
      return complete(artifact('response', [textPart(`Task completed: ${text}`)]), 'Task completed.');
    case 'input-required':
    case 'auth-required':
      if (turn > 0) {
        return complete(artifact('response', [textPart(`Received: ${text}`)]), 'Thank you, the task is complete.');
      }
      return name === 'input-required'
        ? statusOnly(TaskState.TASK_STATE_INPUT_REQUIRED, 'Please provide more input to continue.')
        : statusOnly(TaskState.TASK_STATE_AUTH_REQUIRED,
          'Authorization required: send a follow-up message with credentials.');
    case 'multi-turn':
      if (turn > 0 && firstWord(text) === 'done') {
        const summary = `Conversation completed after ${turn + 1} turns.`;
        return complete(artifact('summary', [textPart(summary)]), summary);
      }
      return statusOnly(TaskState.TASK_STATE_INPUT_REQUIRED,
        `Turn ${turn + 1} received. Send more input, or 'done' to finish.`);
    case 'cancel':
      return { chunks: [], state: TaskState.TASK_STATE_WORKING, reply: '', waitForCancel: true };
    case 'long-running': {
      const ms = delayOf(text);
      return { ...complete(artifact('result', [textPart(`Long-running work finished after ${ms} ms.`)]),
        'Long-running work finished.'), delayMs: ms };
    }
    case 'stream-basic':
      return complete(artifact('stream', [textPart('Streamed content')]), '');
    case 'stream-chunked':
      return planChunked();
    case 'stream-many':
      return planMany(text);
    case 'artifact-text':
    case 'artifact-file':
    case 'artifact-file-url':
    case 'artifact-data':
      return planArtifact(name);
    case 'task-failure':
      return statusOnly(TaskState.TASK_STATE_FAILED, 'Task failed: simulated failure requested by tck-task-failure.');
    case 'reject-task':
      return statusOnly(TaskState.TASK_STATE_REJECTED, 'Task rejected: tck-reject-task asks the agent to refuse it.');
    case 'stream-error':
      return { ...complete(artifact('partial', [textPart('Partial output before the failure.')]), ''),
        throwAfterChunks: 'Simulated mid-stream failure (tck-stream-error)' };
    default:
      return complete(artifact('echo', [textPart(`Echo: ${text}`)]), `Echo: ${text}`);
  }
}

// ---- the executor ---------------------------------------------------------------------

function sleep(ms, signal) {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    timer.unref();
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

const kFinalStates = new Set([
  TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_REJECTED,
]);

export class TckExecutor {
  // taskId -> { behaviour, turn, contextId, abort: AbortController }; dropped at a final state.
  sessions = new Map();

  async execute(ctx, bus) {
    const message = ctx.userMessage;
    const text = firstText(message);
    const { taskId, contextId } = ctx;
    let session = this.sessions.get(taskId);
    if (!ctx.task) {
      const behaviour = selectBehaviour(message);
      if (behaviour === 'message-response') {
        bus.publish(AgentEvent.message(agentMessage(`Direct reply: ${text}`, '', contextId)));
        return;
      }
      session = { behaviour, turn: 0, contextId, abort: null };
      bus.publish(AgentEvent.task({
        id: taskId, contextId,
        status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() },
        artifacts: [], history: [message], metadata: undefined,
      }));
      this.publishStatus(bus, taskId, contextId, TaskState.TASK_STATE_WORKING, '');
    } else {
      // A follow-up: the behaviour of the task's first message decides (kept in the session;
      // derived from the stored history should the session be gone).
      session ??= { behaviour: selectBehaviour(ctx.task.history?.[0]), turn: 0, contextId, abort: null };
      session.turn += 1;
      bus.publish(AgentEvent.task({
        ...ctx.task,
        status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: now() },
      }));
    }
    session.abort = new AbortController();
    this.sessions.set(taskId, session);
    const plan = planTurn(session.behaviour, session.turn, text);
    let finalState = null;
    try {
      finalState = await this.runPlan(bus, taskId, contextId, plan, session.abort.signal);
    } finally {
      if (finalState === null || kFinalStates.has(finalState)) this.sessions.delete(taskId);
    }
  }

  // Publishes one turn; returns the state it ends in, null when it was canceled or threw.
  async runPlan(bus, taskId, contextId, plan, signal) {
    if (plan.waitForCancel) {
      await sleep(kCancelWaitMs, signal);
      return signal.aborted ? null : TaskState.TASK_STATE_WORKING;
    }
    if (plan.delayMs) await sleep(plan.delayMs, signal);
    if (signal.aborted) return null;
    for (const c of plan.chunks) {
      bus.publish(AgentEvent.artifactUpdate({
        taskId, contextId, artifact: c.artifact, append: c.append, lastChunk: c.lastChunk, metadata: undefined,
      }));
    }
    if (plan.throwAfterChunks) throw new Error(plan.throwAfterChunks);
    this.publishStatus(bus, taskId, contextId, plan.state, plan.reply);
    return plan.state;
  }

  publishStatus(bus, taskId, contextId, state, text) {
    bus.publish(AgentEvent.statusUpdate({
      taskId, contextId,
      status: { state, message: text ? agentMessage(text, taskId, contextId) : undefined, timestamp: now() },
      metadata: undefined,
    }));
  }

  async cancelTask(taskId, bus) {
    // The SDK calls this only while the task's event bus is alive, and reads the CANCELED
    // status back from that bus. Aborting ends a pending execute() (tck-cancel, long-running).
    const session = this.sessions.get(taskId);
    this.sessions.delete(taskId);
    session?.abort?.abort();
    this.publishStatus(bus, taskId, session?.contextId ?? '', TaskState.TASK_STATE_CANCELED, 'Task canceled.');
  }
}

// ---- the card -------------------------------------------------------------------------

// The card's skills (ProtoJSON): one per behaviour, plus one only the extended card lists.
export function tckSkills(extended) {
  const skills = kBehaviours.map(([name, prefix, description]) => ({
    id: name, name: prefix || 'echo', description, tags: ['tck'],
    examples: prefix ? [`${prefix} hello`] : ['hello'],
  }));
  if (extended) {
    skills.push({ id: 'extended-only', name: 'extended-only', description: 'listed in the extended card only', tags: ['extended'] });
  }
  return skills;
}

function buildCard(base, extended, grpcAddress) {
  const skills = tckSkills(extended);
  return AgentCard.fromJSON({
    name: kName,
    description: 'A2A 1.0 interop agent built on @a2a-js/sdk 1.3.0; tck-* behaviours as in a2a-ref-agent'
      + (extended ? ' (extended card)' : ''),
    version: '1.0.0',
    provider: { organization: 'a2a-conformance interop tests', url: `${base}/` },
    supportedInterfaces: [
      { url: `${base}${kJsonRpcPath}`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${base}${kRestPath}`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      // A2A 1.0 gRPC interfaces are host:port (no scheme): the SDK's gRPC client passes the
      // url to grpc-js as the channel target.
      ...(grpcAddress ? [{ url: grpcAddress, protocolBinding: 'GRPC', protocolVersion: '1.0' }] : []),
    ],
    capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: true },
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills,
  });
}

// ---- main -----------------------------------------------------------------------------

function parsePort(name, argv, flag = '--port') {
  const i = argv.indexOf(flag);
  if (i < 0) return undefined;
  const port = Number(argv[i + 1]);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`${name}: ${flag} needs an integer in 0..65535\n`);
    process.exit(64);
  }
  return port;
}

// Starts grpc-js on 127.0.0.1:port (insecure), no service yet; resolves
// { grpc, sdk: @a2a-js/sdk/server/grpc, server, address: "127.0.0.1:BOUND" }.
async function startGrpc(name, port) {
  const grpc = await import('@grpc/grpc-js');
  const sdk = await import('@a2a-js/sdk/server/grpc');  // A2AService, grpcService, UserBuilder
  const server = new grpc.Server();
  const bound = await new Promise((resolve, reject) => {
    server.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(),
      (err, p) => (err ? reject(err) : resolve(p)));
  }).catch((err) => {
    process.stderr.write(`${name}: gRPC bind on 127.0.0.1:${port}: ${err.message}\n`);
    process.exit(1);
  });
  return { grpc, sdk, server, address: `127.0.0.1:${bound}` };
}

// The process around an agent, shared with agent-v03.mjs: parses --port/--help (and
// --grpc-port when options.grpc), binds 127.0.0.1 (gRPC first, then HTTP), calls
// mount(app, base, grpcServer) once both listen (grpcServer null without --grpc-port; mount
// adds its services to it), prints `NAME grpc on 127.0.0.1:G` (with --grpc-port) and then
// `NAME listening on BASE` as the last stdout line, and exits 0 on SIGTERM/SIGINT.
export async function runAgent(name, script, mount, options = {}) {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    process.stdout.write(`usage: node ${script} [--port N]${options.grpc ? ' [--grpc-port G]' : ''}   (0 = any free port)\n`);
    return;
  }
  const argv = process.argv.slice(2);
  const port = parsePort(name, argv) ?? 0;
  const grpcPort = options.grpc ? parsePort(name, argv, '--grpc-port') : undefined;
  // stdout carries only our lines; the SDK logs with console.info (push deliveries).
  console.log = console.info = console.debug = (...args) => console.error(...args);

  const grpcSide = grpcPort === undefined ? null : await startGrpc(name, grpcPort);
  const app = express();
  const server = app.listen(port, '127.0.0.1', () => {
    const base = `http://127.0.0.1:${server.address().port}`;
    mount(app, base, grpcSide);
    if (grpcSide) process.stdout.write(`${name} grpc on ${grpcSide.address}\n`);
    process.stdout.write(`${name} listening on ${base}\n`);
  });
  server.on('error', (err) => {
    process.stderr.write(`${name}: ${err.message}\n`);
    process.exit(1);
  });
  const stop = () => {
    server.close(() => { if (!grpcSide) process.exit(0); });
    // Open SSE streams would keep close() waiting: drop them, and do not wait for the
    // executors' pending work (nothing is persisted). Same for open gRPC streams.
    server.closeAllConnections();
    grpcSide?.server.forceShutdown();
    setTimeout(() => process.exit(0), 200).unref();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

function main() {
  runAgent(kName, 'agent.mjs', (app, base, grpcSide) => {
    const card = buildCard(base, false, grpcSide?.address);
    const extendedCard = buildCard(base, true, grpcSide?.address);
    const pushStore = new InMemoryPushNotificationStore();
    const handler = new DefaultRequestHandler(
      card, new InMemoryTaskStore(), new TckExecutor(), undefined,
      pushStore, new DefaultPushNotificationSender(pushStore),
      async () => extendedCard, undefined,
      { keepBusAliveStates: [TaskState.TASK_STATE_INPUT_REQUIRED] });
    app.use('/.well-known/agent-card.json',
      agentCardHandler({ agentCardProvider: async () => AgentCard.toJSON(card) }));
    app.use(kJsonRpcPath, jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
    app.use(kRestPath, restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
    if (grpcSide) {
      grpcSide.server.addService(grpcSide.sdk.A2AService,
        grpcSide.sdk.grpcService({ requestHandler: handler, userBuilder: grpcSide.sdk.UserBuilder.noAuthentication }));
    }
  }, { grpc: true });
}

// agent-v03.mjs imports the executor and runAgent from here: start only when run directly.
if (process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url))) main();
