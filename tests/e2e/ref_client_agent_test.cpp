// a2a-ref-client (the real binary) drives a2a-ref-agent (the real binary)
// over real pipes through every operation, streaming included; then the
// client library alone pipelines 200 calls from 4 threads into the agent.
#include <gtest/gtest.h>

#include <set>
#include <thread>

#include "peers/a2a-ref-client/session.hpp"
#include "runner/core/escape.hpp"
#include "runner/jsonrpc/message.hpp"
#include "runner/transport/stdio_process.hpp"

// A namespace per file: the e2e binary is built in unity batches (tests/CMakeLists.txt).
namespace e2e_ref_client_agent {

namespace {

using a2a::core::Deadline;
using a2a::core::Millis;
using a2a::transport::ReadResult;
using a2a::transport::StdioProcess;
using Json = nlohmann::json;

constexpr Millis kRunLimit{20000};

std::vector<std::string> client_argv(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {A2A_REF_CLIENT, "--agent", std::string("'") + A2A_REF_AGENT + "'",
                                   "--timeout-ms", "10000"};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

std::vector<Json> parse_lines(const std::string& out) {
  std::vector<Json> lines;
  size_t pos = 0;
  for (size_t nl; (nl = out.find('\n', pos)) != std::string::npos; pos = nl + 1) {
    lines.push_back(Json::parse(out.substr(pos, nl - pos)));
  }
  return lines;
}

struct ClientRun {
  int code = -1;
  std::vector<Json> lines;
  std::string err;
};

// Runs the client to completion (stdin_text feeds "script -").
ClientRun run_client(const std::vector<std::string>& args, const std::string& stdin_text = "") {
  Deadline deadline = Deadline::after(kRunLimit);
  auto spawned = StdioProcess::spawn({client_argv(args)});
  EXPECT_TRUE(spawned.ok());
  if (!spawned.ok()) return {};
  StdioProcess& p = **spawned;
  if (!stdin_text.empty()) EXPECT_TRUE(p.write(stdin_text, deadline).ok());
  p.close_stdin();
  std::string out;
  for (ReadResult r = p.read_some(deadline); r.status == ReadResult::Status::kData; r = p.read_some(deadline)) {
    out += r.data;
  }
  auto st = p.wait_exit(deadline);
  EXPECT_TRUE(st.has_value()) << "client did not exit in time";
  ClientRun run;
  run.code = st && st->exited ? st->code : -1;
  run.lines = parse_lines(out);
  run.err = p.stderr_text();
  return run;
}

// `script -` driven one line at a time, so a test can decide the next step.
class Interactive {
 public:
  Interactive() {
    auto spawned = StdioProcess::spawn({client_argv({"script", "-"})});
    EXPECT_TRUE(spawned.ok());
    if (spawned.ok()) proc_ = std::move(*spawned);
  }
  Json ask(const Json& step) {
    Deadline d = Deadline::after(Millis(10000));
    EXPECT_TRUE(proc_->write(a2a::jsonrpc::dump(step) + "\n", d).ok());
    for (;;) {
      size_t nl = buf_.find('\n');
      if (nl != std::string::npos) {
        Json line = Json::parse(buf_.substr(0, nl));
        buf_.erase(0, nl + 1);
        return line;
      }
      ReadResult r = proc_->read_some(d);
      if (r.status != ReadResult::Status::kData) return Json{{"error", "client gave no line"}};
      buf_ += r.data;
    }
  }
  int finish() {
    proc_->close_stdin();
    auto st = proc_->wait_exit(Deadline::after(kRunLimit));
    return st && st->exited ? st->code : -1;
  }

 private:
  std::unique_ptr<StdioProcess> proc_;
  std::string buf_;
};

Json message(const std::string& text, const std::string& task_id = "") {
  Json m = {{"messageId", a2a::core::uuid_v7()}, {"role", "ROLE_USER"}, {"parts", {{{"text", text}}}}};
  if (!task_id.empty()) m["taskId"] = task_id;
  return m;
}

std::string state_of(const Json& task) { return task["status"]["state"].get<std::string>(); }

std::string script_of(const std::vector<Json>& steps) {
  std::string s;
  for (const Json& j : steps) s += j.dump() + "\n";
  return s;
}

TEST(RefClientAgent, SendCompletesATask) {
  ClientRun r = run_client({"send", "--text", "tck-complete-task hello"});
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_EQ(r.lines.size(), 1u);
  EXPECT_EQ(r.lines[0]["op"], "send");
  const Json& task = r.lines[0]["result"]["task"];
  EXPECT_EQ(state_of(task), "TASK_STATE_COMPLETED");
  EXPECT_FALSE(task["artifacts"].empty());
}

TEST(RefClientAgent, SendGetsADirectMessageReply) {
  ClientRun r = run_client({"send", "--text", "tck-message-response hi", "--uuid-ids"});
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_EQ(r.lines.size(), 1u);
  EXPECT_EQ(r.lines[0]["result"]["message"]["role"], "ROLE_AGENT");
}

TEST(RefClientAgent, InputRequiredThenAFollowUpCompletesTheTask) {
  std::string script = script_of({
      {{"op", "send"}, {"params", {{"message", message("tck-input-required")}}}, {"as", "t"}},
      {{"op", "send"}, {"params", {{"message", message("more details", "${t.task.id}")}}}},
  });
  ClientRun r = run_client({"script", "-"}, script);
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_EQ(r.lines.size(), 2u);
  EXPECT_EQ(state_of(r.lines[0]["result"]["task"]), "TASK_STATE_INPUT_REQUIRED");
  EXPECT_EQ(state_of(r.lines[1]["result"]["task"]), "TASK_STATE_COMPLETED");
  EXPECT_EQ(r.lines[1]["result"]["task"]["id"], r.lines[0]["result"]["task"]["id"]);
}

TEST(RefClientAgent, ReturnImmediatelyThenGetPollingSeesCompletion) {
  Interactive c;
  Json sent = c.ask({{"op", "send"},
                     {"params", {{"message", message("tck-long-running delay=300")},
                                 {"configuration", {{"returnImmediately", true}}}}}});
  ASSERT_TRUE(sent.contains("result")) << sent.dump();
  std::string id = sent["result"]["task"]["id"];
  EXPECT_NE(state_of(sent["result"]["task"]), "TASK_STATE_COMPLETED");
  std::string state;
  for (int poll = 0; poll < 100 && state != "TASK_STATE_COMPLETED"; ++poll) {
    Json got = c.ask({{"op", "get"}, {"params", {{"id", id}}}});
    ASSERT_TRUE(got.contains("result")) << got.dump();
    state = state_of(got["result"]);
    if (state != "TASK_STATE_COMPLETED") std::this_thread::sleep_for(Millis(50));
  }
  EXPECT_EQ(state, "TASK_STATE_COMPLETED");
  EXPECT_EQ(c.finish(), 0);
}

// Checks the stream lines: events only, then exactly one end line.
std::vector<Json> stream_events(const ClientRun& r, const std::string& op) {
  std::vector<Json> events;
  EXPECT_FALSE(r.lines.empty());
  for (size_t i = 0; i < r.lines.size(); ++i) {
    EXPECT_EQ(r.lines[i]["op"], op);
    if (i + 1 == r.lines.size()) {
      EXPECT_EQ(r.lines[i]["end"], true) << r.lines[i].dump();
    } else {
      EXPECT_TRUE(r.lines[i].contains("event")) << r.lines[i].dump();
      events.push_back(r.lines[i]["event"]);
    }
  }
  return events;
}

TEST(RefClientAgent, StreamBasicDeliversEventsInOrderThenEnds) {
  ClientRun r = run_client({"stream", "--text", "tck-stream-basic"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::vector<Json> events = stream_events(r, "stream");
  ASSERT_GE(events.size(), 3u);
  EXPECT_TRUE(events.front().contains("task"));
  size_t artifact_at = 0, completed_at = 0;
  for (size_t i = 0; i < events.size(); ++i) {
    if (events[i].contains("artifactUpdate") && !artifact_at) artifact_at = i;
    if (events[i].contains("statusUpdate") && state_of(events[i]["statusUpdate"]) == "TASK_STATE_COMPLETED") completed_at = i;
  }
  EXPECT_GT(artifact_at, 0u);
  EXPECT_EQ(completed_at, events.size() - 1);
  EXPECT_LT(artifact_at, completed_at);
}

TEST(RefClientAgent, StreamChunkedDeliversChunksInOrderThenEnds) {
  ClientRun r = run_client({"stream", "--text", "tck-stream-chunked"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::vector<Json> chunks;
  for (const Json& e : stream_events(r, "stream")) {
    if (e.contains("artifactUpdate")) chunks.push_back(e["artifactUpdate"]);
  }
  ASSERT_GE(chunks.size(), 2u);
  EXPECT_FALSE(chunks.front().value("append", false));
  for (size_t i = 1; i < chunks.size(); ++i) {
    EXPECT_TRUE(chunks[i].value("append", false)) << i;
    EXPECT_EQ(chunks[i]["artifact"]["artifactId"], chunks[0]["artifact"]["artifactId"]);
  }
  EXPECT_TRUE(chunks.back().value("lastChunk", false));
}

TEST(RefClientAgent, GetHonoursHistoryLength) {
  std::string script = script_of({
      {{"op", "send"}, {"params", {{"message", message("tck-complete-task")}}}, {"as", "t"}},
      {{"op", "get"}, {"params", {{"id", "${t.task.id}"}, {"historyLength", 1}}}},
      {{"op", "get"}, {"params", {{"id", "${t.task.id}"}}}},
  });
  ClientRun r = run_client({"script", "-"}, script);
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_EQ(r.lines.size(), 3u);
  EXPECT_LE(r.lines[1]["result"]["history"].size(), 1u);
  EXPECT_GE(r.lines[2]["result"]["history"].size(), 2u);
}

TEST(RefClientAgent, ListWalksEveryPage) {
  Interactive c;
  std::set<std::string> sent;
  for (int i = 0; i < 5; ++i) {
    Json r = c.ask({{"op", "send"}, {"params", {{"message", message("tck-complete-task")}}}});
    sent.insert(r["result"]["task"]["id"].get<std::string>());
  }
  std::set<std::string> listed;
  Json params = {{"pageSize", 2}};
  int pages = 0;
  for (; pages < 10; ++pages) {
    Json page = c.ask({{"op", "list"}, {"params", params}});
    ASSERT_TRUE(page.contains("result")) << page.dump();
    EXPECT_LE(page["result"]["tasks"].size(), 2u);
    EXPECT_EQ(page["result"]["totalSize"], 5);
    for (const Json& t : page["result"]["tasks"]) listed.insert(t["id"].get<std::string>());
    std::string token = page["result"]["nextPageToken"];
    if (token.empty()) break;
    params["pageToken"] = token;
  }
  EXPECT_EQ(pages, 2);  // pages 0, 1, 2
  EXPECT_EQ(listed, sent);
  EXPECT_EQ(c.finish(), 0);
}

TEST(RefClientAgent, CancelThenCancelAgainIsNotCancelable) {
  std::string script = script_of({
      {{"op", "send"},
       {"params", {{"message", message("tck-cancel")}, {"configuration", {{"returnImmediately", true}}}}},
       {"as", "t"}},
      {{"op", "cancel"}, {"params", {{"id", "${t.task.id}"}}}},
      {{"op", "cancel"}, {"params", {{"id", "${t.task.id}"}}}},
  });
  ClientRun r = run_client({"script", "-"}, script);
  EXPECT_EQ(r.code, 1) << "the second cancel fails";
  ASSERT_EQ(r.lines.size(), 3u);
  EXPECT_EQ(state_of(r.lines[0]["result"]["task"]), "TASK_STATE_WORKING");
  EXPECT_EQ(state_of(r.lines[1]["result"]), "TASK_STATE_CANCELED");
  EXPECT_EQ(r.lines[2]["error"]["code"], -32002);
  EXPECT_NE(r.err.find("TaskNotCancelableError"), std::string::npos) << r.err;
}

TEST(RefClientAgent, SubscribeGetsTheSnapshotFirstAndEndsAtTheTerminalState) {
  std::string script = script_of({
      {{"op", "send"},
       {"params", {{"message", message("tck-long-running delay=400")}, {"configuration", {{"returnImmediately", true}}}}},
       {"as", "t"}},
      {{"op", "subscribe"}, {"params", {{"id", "${t.task.id}"}}}},
  });
  ClientRun r = run_client({"script", "-"}, script);
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_GE(r.lines.size(), 3u);
  r.lines.erase(r.lines.begin());
  std::vector<Json> events = stream_events(r, "subscribe");
  ASSERT_GE(events.size(), 2u);
  EXPECT_TRUE(events.front().contains("task"));
  ASSERT_TRUE(events.back().contains("statusUpdate"));
  EXPECT_EQ(state_of(events.back()["statusUpdate"]), "TASK_STATE_COMPLETED");
}

TEST(RefClientAgent, PushConfigCreateGetListDelete) {
  std::string script = script_of({
      {{"op", "send"}, {"params", {{"message", message("tck-cancel")}, {"configuration", {{"returnImmediately", true}}}}}, {"as", "t"}},
      {{"op", "push-create"}, {"params", {{"taskId", "${t.task.id}"}, {"url", "http://127.0.0.1:9/hook"}, {"token", "tok"}}}, {"as", "p"}},
      {{"op", "push-get"}, {"params", {{"taskId", "${t.task.id}"}, {"id", "${p.id}"}}}},
      {{"op", "push-list"}, {"params", {{"taskId", "${t.task.id}"}}}},
      {{"op", "push-delete"}, {"params", {{"taskId", "${t.task.id}"}, {"id", "${p.id}"}}}},
      {{"op", "push-list"}, {"params", {{"taskId", "${t.task.id}"}}}},
  });
  ClientRun r = run_client({"script", "-"}, script);
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_EQ(r.lines.size(), 6u);
  const Json& created = r.lines[1]["result"];
  EXPECT_EQ(created["url"], "http://127.0.0.1:9/hook");
  EXPECT_FALSE(created["id"].get<std::string>().empty());
  EXPECT_EQ(r.lines[2]["result"], created);
  EXPECT_EQ(r.lines[3]["result"]["configs"], Json::array({created}));
  EXPECT_TRUE(r.lines[4]["result"].is_null());
  EXPECT_TRUE(r.lines[5]["result"]["configs"].empty());
}

TEST(RefClientAgent, CardReturnsTheExtendedAgentCard) {
  ClientRun r = run_client({"card"});
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_EQ(r.lines.size(), 1u);
  EXPECT_EQ(r.lines[0]["result"]["name"], "a2a-ref-agent");
  EXPECT_TRUE(r.lines[0]["result"]["capabilities"].is_object());
}

TEST(RefClientAgent, EverySubcommandOnAnUnknownTaskGetsTaskNotFound) {
  const std::vector<std::vector<std::string>> ops = {
      {"get", "--id", "nope"},
      {"cancel", "--id", "nope"},
      {"subscribe", "--id", "nope"},
      {"push-create", "--task-id", "nope", "--url", "http://127.0.0.1:9/h"},
      {"push-get", "--task-id", "nope", "--config-id", "c"},
      {"push-list", "--task-id", "nope"},
      {"push-delete", "--task-id", "nope", "--config-id", "c"},
  };
  for (const auto& op : ops) {
    ClientRun r = run_client(op);
    EXPECT_EQ(r.code, 1) << op[0] << ": " << r.err;
    ASSERT_EQ(r.lines.size(), 1u) << op[0];
    EXPECT_EQ(r.lines[0]["op"], op[0]);
    EXPECT_EQ(r.lines[0]["error"]["code"], -32001) << op[0] << ": " << r.lines[0].dump();
  }
}

TEST(RefClientAgent, ListSubcommandFiltersByStatus) {
  ClientRun r = run_client({"list", "--status", "working", "--page-size", "5", "--include-artifacts"});
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_EQ(r.lines.size(), 1u);
  EXPECT_TRUE(r.lines[0]["result"]["tasks"].empty());
  EXPECT_EQ(r.lines[0]["result"]["nextPageToken"], "");
}

TEST(RefClientAgent, UsageErrorsExit64WithoutStartingTheAgent) {
  EXPECT_EQ(run_client({"get"}).code, 64);
  EXPECT_EQ(run_client({"bogus"}).code, 64);
  EXPECT_EQ(run_client({"send", "--raw-params", "{not json"}).code, 64);
}

TEST(RefClientAgentLibrary, TwoHundredPipelinedCallsFromFourThreadsGetTheirOwnAnswers) {
  auto session = a2a::client::StdioSession::connect({A2A_REF_AGENT});
  ASSERT_TRUE(session.ok()) << session.error().str();
  a2a::client::StdioSession& s = **session;
  constexpr int kThreads = 4, kPerThread = 50;
  std::vector<int> right(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Deadline d = Deadline::after(Millis(20000));
      std::vector<a2a::client::PendingCall> pending;
      for (int k = 0; k < kPerThread; ++k) {
        std::string tag = "n=" + std::to_string(t) + "-" + std::to_string(k) + ";";
        pending.push_back(s.start_call(a2a::model::Operation::kSendMessage,
                                       {{"message", message("tck-message-response " + tag)}}, d));
      }
      for (int k = 0; k < kPerThread; ++k) {
        a2a::client::CallResult r = s.finish_call(pending[k]);
        std::string tag = "n=" + std::to_string(t) + "-" + std::to_string(k) + ";";
        if (r.ok() && r.result["message"]["parts"][0]["text"].get<std::string>().find(tag) != std::string::npos) ++right[t];
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(right[t], kPerThread) << "thread " << t;
  auto st = s.close();
  EXPECT_TRUE(st.exited && st.code == 0) << st.str();
}

}  // namespace

}  // namespace e2e_ref_client_agent
