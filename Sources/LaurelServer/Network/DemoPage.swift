/// The live demo page the WebSocket port serves on `GET /`: paste a token, log an activity, and watch unlocks, the
/// streak and challenges change as pushes arrive. It speaks the line protocol over the same endpoint. With
/// `#token=...&log=ACTIVITY` in the address it connects and logs by itself, and once an unlock is on the page it
/// reports a `share` event, so a test can tell from another connection of the user that the page showed it.
enum DemoPage {
    static let html = #"""
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <title>Laurel live demo</title>
    <style>
      body { font-family: system-ui, sans-serif; max-width: 44rem; margin: 2rem auto; padding: 0 1rem; }
      fieldset { margin-bottom: 1rem; } input { margin-right: .5rem; } li { margin: .2rem 0; }
      #status { font-weight: bold; } .push { color: #555; font-family: monospace; font-size: .85rem; }
    </style>
    </head>
    <body>
    <h1>Laurel</h1>
    <p id="status">not connected</p>
    <fieldset><legend>Connect</legend>
      <input id="token" size="50" placeholder="token (lt_...)"><button id="connect">Connect</button>
    </fieldset>
    <fieldset><legend>Log</legend>
      <input id="activity" value="pushups" size="12"><input id="amount" type="number" value="10" min="1" max="100000">
      <button id="log" disabled>Log</button>
    </fieldset>
    <h2>Streak</h2><p id="streak">–</p>
    <h2>Challenges</h2><ul id="challenges"></ul>
    <h2>Unlocked</h2><ul id="unlocks"></ul>
    <h2>Pushes</h2><div id="pushes"></div>
    <script>
    "use strict";
    let socket = null, tag = 0, waiting = {}, reported = false;
    const $ = (id) => document.getElementById(id);
    const params = new URLSearchParams(location.hash.slice(1));

    function request(verb, argument) {
      const t = "d" + (++tag);
      socket.send(t + " " + verb + (argument ? " " + JSON.stringify(argument) : ""));
      return new Promise((resolve) => { waiting[t] = resolve; });
    }
    function showStreak(streak) {
      if (streak) $("streak").textContent = streak.current + " days (longest " + streak.longest + ")" + (streak.at_risk ? ", at risk" : "");
    }
    function showUnlock(achievement) {
      if (document.querySelector('[data-id="' + achievement.id + '"]')) return;
      const item = document.createElement("li");
      item.dataset.id = achievement.id;
      item.textContent = (achievement.icon || "🏅") + " " + achievement.name;
      $("unlocks").appendChild(item);
      if (params.get("log") && !reported) { reported = true; request("EVENT", { name: "share" }); }
    }
    async function showChallenges() {
      const [kind, answer] = await request("CHALLENGES");
      if (kind !== "OK") return;
      $("challenges").innerHTML = "";
      for (const c of answer.daily.concat(answer.weekly)) {
        const item = document.createElement("li");
        item.textContent = c.title + " — " + c.progress + "/" + c.target + (c.completed_at ? " ✓" : "");
        $("challenges").appendChild(item);
      }
    }
    function receive(line) {
      const space = line.indexOf(" "), rest = line.slice(space + 1), second = rest.indexOf(" ");
      const head = line.slice(0, space), kind = second < 0 ? rest : rest.slice(0, second);
      const body = second < 0 ? null : JSON.parse(rest.slice(second + 1));
      if (head !== "*") { const resolve = waiting[head]; delete waiting[head]; if (resolve) resolve([kind, body]); return; }
      const note = document.createElement("div");
      note.className = "push"; note.textContent = line; $("pushes").prepend(note);
      if (kind === "UNLOCK") showUnlock(body);
      if (kind === "STREAK") showStreak(body.streak);
      if (kind === "CHALLENGE" || kind === "GOAL") showChallenges();
    }
    function connect(token) {
      socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/", "laurel.v1");
      socket.onmessage = (message) => receive(message.data);
      socket.onclose = () => { $("status").textContent = "disconnected"; $("log").disabled = true; };
      socket.onopen = async () => {
        const [kind, answer] = await request("AUTH", { token: token });
        if (kind !== "OK") { $("status").textContent = "AUTH refused: " + (answer && answer.code); return; }
        $("status").textContent = "connected as " + answer.user;
        $("log").disabled = false;
        const [, profile] = await request("PROFILE");
        showStreak(profile.streak);
        await showChallenges();
        if (params.get("log")) logOnce(params.get("log"), 10);
      };
    }
    async function logOnce(activity, amount) {
      const [kind, answer] = await request("LOG", { activity: activity, amount: amount });
      if (kind !== "OK") { $("status").textContent = "LOG refused: " + (answer && answer.code); return; }
      showStreak(answer.streak);
      for (const achievement of answer.unlocked) showUnlock(achievement);
      await showChallenges();
    }
    $("connect").onclick = () => connect($("token").value.trim());
    $("log").onclick = () => logOnce($("activity").value.trim(), parseInt($("amount").value, 10));
    if (params.get("token")) { $("token").value = params.get("token"); connect(params.get("token")); }
    </script>
    </body>
    </html>
    """#
}
