#!/usr/bin/env node
// js-agent-v03: an A2A 0.3 agent built on the 0.3 compat layer of the official JavaScript
// SDK (@a2a-js/sdk 1.3.0, `@a2a-js/sdk/compat/v0_3`), the interop partner for the runner's
// 0.3 profile. Same executor, behaviours (tck-*) and skills as agent.mjs, imported from it.
//
//   node agent-v03.mjs [--port N]       (--port 0, the default, picks a free port)
//
// Serves on 127.0.0.1 only, one port:
//   GET  /.well-known/agent-card.json   agentCardHandler({legacyCompat}): a 0.3 card when the
//                                       request has no A2A-Version header (or 0.3), the 1.0
//                                       ProtoJSON form of the same card for A2A-Version: 1.0
//   POST /a2a/jsonrpc                   jsonRpcHandler({legacyCompat}): JSON-RPC 0.3
//                                       (message/send, tasks/get, ...); the card's main `url`
//   *    /v1/...                        legacyRestRouter: HTTP+JSON 0.3 (/v1/message:send,
//                                       /v1/tasks/{id}, ...); the card's HTTP+JSON url is the
//                                       bare base URL, as 0.3 REST clients append /v1/...
// and prints exactly one stdout line, `js-agent-v03 listening on http://127.0.0.1:PORT`.
// Nothing serves 1.0: every interface is declared at 0.3, so a request with A2A-Version: 1.0
// is refused by the SDK's version check (VersionNotSupportedError). README.md ("agent-v03.mjs")
// records what goes on the wire.
//
// Two cards, both through the SDK's public API:
//   the request handler's card declares the interfaces at protocolVersion "0.3": the SDK
//     checks every request's A2A-Version (missing = "0.3") for exact membership in the
//     versions the card declares for that binding, so "0.3.0" there would refuse every
//     0.3 request that carries no header;
//   the card served at the well-known URL (and the extended card) declares "0.3.0", the
//     value 0.3 agents publish (0.3 spec AgentCard.protocolVersion), and lists JSONRPC twice:
//     the SDK's 1.0 -> 0.3 card translation makes the first 0.3 interface the main
//     url/preferredTransport and the others additionalInterfaces, so the repeat puts the main
//     JSONRPC endpoint into additionalInterfaces too, as the 0.3 spec advises ("SHOULD include
//     an entry matching the main 'url' and 'preferredTransport'").
// Push notifications go through createLegacyAwarePushNotificationSender: a webhook registered
// over 0.3 gets 0.3 bodies.
import { AgentCard, TaskState } from '@a2a-js/sdk';
import { DefaultRequestHandler, InMemoryPushNotificationStore, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { UserBuilder, agentCardHandler, jsonRpcHandler } from '@a2a-js/sdk/server/express';
import { createLegacyAwarePushNotificationSender } from '@a2a-js/sdk/compat/v0_3/server';
import { legacyRestRouter } from '@a2a-js/sdk/compat/v0_3/server/express';

import { TckExecutor, runAgent, tckSkills } from './agent.mjs';

const kName = 'js-agent-v03';
const kJsonRpcPath = '/a2a/jsonrpc';

function buildCard(base, { extended, version, jsonRpcTwice }) {
  const jsonrpc = { url: `${base}${kJsonRpcPath}`, protocolBinding: 'JSONRPC', protocolVersion: version };
  const rest = { url: base, protocolBinding: 'HTTP+JSON', protocolVersion: version };
  return AgentCard.fromJSON({
    name: kName,
    description: 'A2A 0.3 interop agent built on the 0.3 compat layer of @a2a-js/sdk 1.3.0; tck-* behaviours as in '
      + 'a2a-ref-agent' + (extended ? ' (extended card)' : ''),
    version: '1.0.0',
    provider: { organization: 'a2a-conformance interop tests', url: `${base}/` },
    supportedInterfaces: jsonRpcTwice ? [jsonrpc, jsonrpc, rest] : [jsonrpc, rest],
    capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: true },
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: tckSkills(extended),
  });
}

runAgent(kName, 'agent-v03.mjs', (app, base) => {
  const handlerCard = buildCard(base, { extended: false, version: '0.3', jsonRpcTwice: false });
  const publicCard = buildCard(base, { extended: false, version: '0.3.0', jsonRpcTwice: true });
  const extendedCard = buildCard(base, { extended: true, version: '0.3.0', jsonRpcTwice: true });
  const pushStore = new InMemoryPushNotificationStore();
  const handler = new DefaultRequestHandler(
    handlerCard, new InMemoryTaskStore(), new TckExecutor(), undefined,
    pushStore, createLegacyAwarePushNotificationSender(pushStore),
    async () => extendedCard, undefined,
    { keepBusAliveStates: [TaskState.TASK_STATE_INPUT_REQUIRED] });
  const userBuilder = UserBuilder.noAuthentication;
  const legacyCompat = { enabled: true };
  // ProtoJSON (AgentCard.toJSON) is what the 1.0 branch serves as is and what the 0.3 branch
  // translates (toCompatAgentCard reads the same field names).
  app.use('/.well-known/agent-card.json',
    agentCardHandler({ agentCardProvider: async () => AgentCard.toJSON(publicCard), legacyCompat }));
  app.use(kJsonRpcPath, jsonRpcHandler({ requestHandler: handler, userBuilder, legacyCompat }));
  app.use(legacyRestRouter({ requestHandler: handler, userBuilder }));
});
