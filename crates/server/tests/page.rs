//! The page end to end, in a real headless Chromium driven through chromedriver (WebDriver):
//! load it, enter a board, solve it with two algorithms, check the comparison table, play a
//! solution to the end and check the board shows the goal; a cube drawn and solved; a BFS
//! chart; Korf's goal set from a link. Screenshots go to `target/tmp/page-*.png`.
//!
//! Needs Debian's `chromium` and `chromium-driver` (.ci/run installs them). Where chromedriver
//! is missing the test says so and passes, unless `GODSEARCH_REQUIRE_BROWSER` is set, as CI
//! sets it, so that CI cannot skip it.

use fantoccini::{Client, ClientBuilder, Locator};
use godsearch_app::cache::TableCache;
use godsearch_app::request::{JobLimits, TableSize, Workbench};
use godsearch_server::{Server, ServerOptions};

use serde_json::{json, Value};
use std::net::{SocketAddr, TcpListener};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(30);

/// Stops chromedriver when the test ends, however it ends.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

fn chromedriver() -> Option<(Driver, u16)> {
    let port = free_port();
    let child = Command::new("chromedriver")
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    match child {
        Ok(child) => {
            let driver = Driver(child);
            let started = Instant::now();
            while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
                assert!(started.elapsed() < WAIT, "chromedriver did not start");
                std::thread::sleep(Duration::from_millis(50));
            }
            Some((driver, port))
        }
        Err(e) => {
            assert!(
                std::env::var_os("GODSEARCH_REQUIRE_BROWSER").is_none(),
                "chromedriver cannot be started ({e}); install Debian's chromium and chromium-driver"
            );
            eprintln!("skipped: chromedriver not found ({e}); install chromium and chromium-driver to run this test");
            None
        }
    }
}

async fn start_server(cache: &std::path::Path) -> String {
    let options = ServerOptions {
        max_jobs: 2,
        max_waiting: 16,
        limits: JobLimits {
            memory_bytes: 1 << 30,
            max_nodes: None,
            max_seconds: Some(Duration::from_secs(60)),
            largest_table: TableSize::Small,
            max_scrambles: 10,
            definition_files: false,
        },
        wall_limit: Some(Duration::from_secs(60)),
        body_limit: 1 << 16,
        max_connections: godsearch_server::MAX_CONNECTIONS,
        header_read_timeout: godsearch_server::HEADER_READ_TIMEOUT,
        max_response: godsearch_server::MAX_RESPONSE,
    };
    let workbench = Arc::new(Workbench::new(TableCache::new(cache.to_path_buf())));
    let server = Server::bind(SocketAddr::from(([127, 0, 0, 1], 0)), workbench, options)
        .await
        .expect("binds");
    let addr = server.local_addr().unwrap();
    tokio::spawn(server.run());
    format!("http://{addr}")
}

/// Runs `script` until it returns `true`.
async fn wait_until(client: &Client, what: &str, script: &str) {
    let started = Instant::now();
    loop {
        let value = client.execute(script, vec![]).await.expect("script runs");
        if value == json!(true) {
            return;
        }
        if started.elapsed() > WAIT {
            let said = client
                .execute(
                    "return [document.getElementById('error').textContent, document.getElementById('progress').textContent, document.getElementById('position').value, document.getElementById('algorithm').value];",
                    vec![],
                )
                .await
                .unwrap_or(Value::Null);
            panic!(
                "timed out waiting for {what} (page error, progress, position, algorithm: {said})"
            );
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits until the comparison table has `rows` runs and Solve is enabled again (the last job
/// over); `what` names the row awaited.
async fn wait_for_runs(client: &Client, rows: usize, what: &str) {
    let script = format!(
        "return document.querySelectorAll('#runs tbody tr').length === {rows} \
         && !document.getElementById('solve').disabled;"
    );
    wait_until(client, what, &script).await;
}

async fn text(client: &Client, css: &str) -> String {
    client
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .text()
        .await
        .unwrap()
}

async fn screenshot(client: &Client, name: &str) {
    let png = client.screenshot().await.expect("a screenshot");
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("page-{name}.png"));
    std::fs::write(&path, png).expect("screenshot saved");
    eprintln!("screenshot: {}", path.display());
}

async fn select(client: &Client, css: &str, value: &str) {
    client
        .find(Locator::Css(css))
        .await
        .unwrap()
        .select_by_value(value)
        .await
        .unwrap_or_else(|e| panic!("{css} = {value}: {e}"));
}

async fn click(client: &Client, css: &str) {
    client
        .find(Locator::Css(css))
        .await
        .unwrap()
        .click()
        .await
        .unwrap_or_else(|e| panic!("click {css}: {e}"));
}

/// Types `text` into the position box in place of what it held, not yet set (Solve reads it).
async fn type_position(client: &Client, text: &str) {
    let input = client.find(Locator::Id("position")).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys(text).await.unwrap();
}

/// Types `text` into the position box and sets it (the Set button).
async fn set_position(client: &Client, text: &str) {
    type_position(client, text).await;
    click(client, "#set-position").await;
}

/// The cells of the comparison table, row by row.
async fn runs(client: &Client) -> Vec<Vec<String>> {
    let rows = client
        .execute(
            "return [...document.querySelectorAll('#runs tbody tr')].map(r => [...r.cells].map(c => c.textContent));",
            vec![],
        )
        .await
        .unwrap();
    serde_json::from_value(rows).unwrap()
}

/// The controls the page shows for the puzzle chosen (labels with `data-option`), and the
/// metrics it offers.
async fn offered(client: &Client) -> (Vec<String>, Vec<String>) {
    let shown = client
        .execute(
            "return [[...document.querySelectorAll('[data-option]')].filter(l => l.style.display !== 'none').map(l => l.dataset.option), \
               [...document.querySelectorAll('#metric option')].map(o => o.value)];",
            vec![],
        )
        .await
        .unwrap();
    serde_json::from_value(shown).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_solves_compares_and_plays() {
    let Some((_driver, port)) = chromedriver() else {
        return;
    };
    let cache = tempfile::tempdir().unwrap();
    let base = start_server(cache.path()).await;

    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".into(),
        json!({"args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1150,1300"]}),
    );
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let client = ClientBuilder::new(connector)
        .capabilities(capabilities)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a browser session");

    client.goto(&base).await.unwrap();
    wait_until(
        &client,
        "the puzzle menu",
        "return document.querySelectorAll('#puzzle option').length > 3 && !!document.getElementById('board');",
    )
    .await;

    // Enter a board and show it.
    let board = "8,6,7,2,5,4,3,0,1";
    set_position(&client, board).await;
    wait_until(
        &client,
        "the board entered",
        "return document.getElementById('board').dataset.position === '8,6,7,2,5,4,3,0,1';",
    )
    .await;

    // Solve it with two algorithms: two rows, both of the optimal length 31.
    for (n, (algorithm, heuristic)) in [("ida", "manhattan"), ("astar", "linear-conflict")]
        .into_iter()
        .enumerate()
    {
        select(&client, "#algorithm", algorithm).await;
        select(&client, "#heuristic", heuristic).await;
        click(&client, "#solve").await;
        wait_for_runs(&client, n + 1, "a new row in the comparison table").await;
    }
    let rows = runs(&client).await;
    assert_eq!(rows.len(), 2, "{rows:?}");
    for (row, (algorithm, heuristic)) in rows
        .iter()
        .zip([("ida", "manhattan"), ("astar", "linear-conflict")])
    {
        assert_eq!(row[1], "3x3");
        assert_eq!(row[2], algorithm, "{row:?}");
        assert_eq!(row[3], "31", "{row:?}");
        assert_eq!(row[4], "yes", "{row:?}");
        assert!(
            row[5].ends_with(" ms") || row[5].ends_with(" µs"),
            "{row:?}"
        );
        assert_eq!(row[6], "play", "{row:?}");
        assert!(row[7].contains(heuristic), "{row:?}");
        assert!(
            row[8].replace(',', "").parse::<u64>().unwrap() > 0,
            "{row:?}"
        );
    }
    screenshot(&client, "compare").await;
    // The address now holds the puzzle, the position and both runs' requests.
    let link = client.current_url().await.unwrap().to_string();
    assert!(
        link.contains("puzzle=3x3") && link.contains("runs="),
        "{link}"
    );

    // Play the last solution to the end at full speed: the board shows the goal.
    client
        .execute(
            "const s = document.getElementById('speed'); s.value = 20; s.dispatchEvent(new Event('input'));",
            vec![],
        )
        .await
        .unwrap();
    click(&client, "#play").await;
    wait_until(
        &client,
        "the solution played to its end",
        "return document.getElementById('play-status').textContent.includes('move 31 of 31');",
    )
    .await;
    let shown = client
        .execute(
            "return document.getElementById('board').dataset.position;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(shown, json!("1,2,3,4,5,6,7,8,0"));
    assert!(text(&client, "#play-status").await.contains("solved"));
    screenshot(&client, "played").await;

    // A tile moves by a click and by an arrow key.
    click(&client, "#board .tile[data-cell='7']").await;
    wait_until(
        &client,
        "a tile moved by a click",
        "return document.getElementById('position').value === '1,2,3,4,5,6,7,0,8';",
    )
    .await;
    client
        .find(Locator::Id("view"))
        .await
        .unwrap()
        .send_keys("\u{E012}")
        .await
        .unwrap();
    wait_until(
        &client,
        "a tile moved by the left arrow",
        "return document.getElementById('position').value === '1,2,3,4,5,6,7,8,0';",
    )
    .await;

    // The 8-puzzle's levels as a chart and a table.
    click(&client, "#bfs").await;
    wait_until(
        &client,
        "the level table",
        "return document.querySelectorAll('#levels tbody tr').length === 32 && !document.getElementById('bfs').disabled;",
    )
    .await;
    let levels = client
        .execute(
            "return [...document.querySelectorAll('#levels tbody tr')].map(r => Number(r.cells[1].textContent.replace(/,/g, '')));",
            vec![],
        )
        .await
        .unwrap();
    let levels: Vec<u64> = serde_json::from_value(levels).unwrap();
    assert_eq!(levels, godsearch_testdata::levels("sliding-3x3.txt"));
    assert_eq!(
        client
            .execute(
                "return document.querySelectorAll('#chart rect').length;",
                vec![]
            )
            .await
            .unwrap(),
        json!(32)
    );
    // The goal's level (one position) is a bar too, and the chart has its axis titles.
    let first_bar = client
        .execute(
            "return Number(document.querySelector('#chart rect').getAttribute('height'));",
            vec![],
        )
        .await
        .unwrap();
    assert!(first_bar.as_f64().unwrap() > 0.0, "{first_bar}");
    let titles = client
        .execute(
            "return [...document.querySelectorAll('#chart text.axis')].map(t => t.textContent);",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        titles,
        json!(["distance from the goal (moves)", "positions (log scale)"])
    );
    // The levels export as CSV, one line a level after the header.
    let csv = client.execute("return levelsCsv();", vec![]).await.unwrap();
    let csv = csv.as_str().unwrap();
    assert!(csv.starts_with("distance,positions\n0,1\n1,2\n"), "{csv}");
    assert_eq!(csv.lines().count(), 33);
    screenshot(&client, "bfs").await;

    // A cube: the 2x2x2 from a typed scramble, drawn as a net, solved and played.
    select(&client, "#puzzle", "2x2x2").await;
    // The controls come from the entry: a metric, no heuristic, no "optimal" (every 2x2x2
    // solver is optimal).
    assert_eq!(
        offered(&client).await,
        (
            vec!["metric".into()],
            ["htm", "qtm", "stm", "etm"].map(String::from).to_vec()
        )
    );
    // Choosing another puzzle clears the levels counted for the one before.
    assert_eq!(
        client
            .execute(
                "return document.querySelectorAll('#levels tbody tr').length;",
                vec![]
            )
            .await
            .unwrap(),
        json!(0)
    );
    wait_until(
        &client,
        "the cube net",
        "return !!document.getElementById('net') && document.querySelectorAll('#net rect').length === 24;",
    )
    .await;
    set_position(&client, "R U2 F' R").await;
    click(&client, "#solve").await;
    wait_for_runs(&client, 3, "the cube's row").await;
    let rows = runs(&client).await;
    assert_eq!(rows[2][1], "2x2x2");
    assert_eq!(rows[2][3], "4", "{rows:?}");
    click(&client, "#play").await;
    wait_until(
        &client,
        "the cube solved",
        "return document.getElementById('play-status').textContent.includes('solved');",
    )
    .await;
    screenshot(&client, "cube").await;
    // A step back turns the last move's layer in 3D: its 12 stickers (a face's 4 and 2 of
    // each side beside it) copied into one turning layer, the originals hidden meanwhile,
    // then the position before the move drawn.
    let turn = client
        .execute(
            "document.getElementById('back').click(); \
             const layer = document.querySelector('#cube3d .layer3d'); \
             const hidden = Array.from(document.querySelectorAll('#cube3d .face3d div')) \
               .filter((d) => d.style.visibility === 'hidden').length; \
             return layer ? [layer.children.length, hidden, layer.style.transform] : null;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(turn[0], json!(12), "{turn}");
    assert_eq!(turn[1], json!(12), "{turn}");
    assert!(turn[2].as_str().unwrap().starts_with("rotate3d("), "{turn}");
    wait_until(
        &client,
        "the turn ended, one move back",
        "return !document.querySelector('#cube3d .layer3d') \
           && document.getElementById('play-status').textContent.includes('move 3 of 4');",
    )
    .await;

    // The pancake puzzle, from the registry with no page code of its own but its drawing: a
    // typed stack, solved, played to the sorted stack; a click flips the stack above it.
    select(&client, "#puzzle", "pancake-8").await;
    assert_eq!(offered(&client).await, (vec![], vec![]));
    wait_until(
        &client,
        "the sorted stack",
        "return document.querySelectorAll('#stack .layer').length === 8 && document.getElementById('stack').classList.contains('solved');",
    )
    .await;
    set_position(&client, "3,1,4,8,2,7,5,6").await;
    click(&client, "#solve").await;
    wait_for_runs(&client, 4, "the pancake row").await;
    let rows = runs(&client).await;
    assert_eq!(rows[3][1], "pancake-8");
    assert_eq!(rows[3][2], "auto");
    assert_eq!(rows[3][7], "IDA* with the gap heuristic");
    assert_eq!(rows[3][3], "8", "{rows:?}");
    click(&client, "#play").await;
    wait_until(
        &client,
        "the stack sorted",
        "return document.getElementById('play-status').textContent.includes('solved') && document.getElementById('stack').classList.contains('solved');",
    )
    .await;
    // Flipping the whole sorted stack by its bottom pancake reverses it.
    client
        .execute(
            "document.querySelectorAll('#stack .layer')[7].click();",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        client
            .execute("return document.getElementById('position').value;", vec![])
            .await
            .unwrap(),
        json!("8,7,6,5,4,3,2,1")
    );
    screenshot(&client, "pancake").await;

    // Any name the registry reads, typed: the server opens it, the page reads no names. A
    // stack not in the menu, a board by another of its names (shown by the name requests
    // use), and a name refused in the registry's words.
    let typed = client.find(Locator::Id("custom-size")).await.unwrap();
    typed.clear().await.unwrap();
    typed.send_keys("pancake-11").await.unwrap();
    click(&client, "#use-size").await;
    wait_until(
        &client,
        "the typed stack",
        "return document.querySelectorAll('#stack .layer').length === 11 && document.getElementById('puzzle').value === 'pancake-11';",
    )
    .await;
    typed.clear().await.unwrap();
    typed.send_keys("15-puzzle").await.unwrap();
    click(&client, "#use-size").await;
    wait_until(
        &client,
        "the board by its other name",
        "return document.getElementById('puzzle').value === '4x4' && document.getElementById('position').value === '1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,0';",
    )
    .await;
    typed.clear().await.unwrap();
    typed.send_keys("pancake-40").await.unwrap();
    click(&client, "#use-size").await;
    wait_until(
        &client,
        "the registry's refusal",
        "return document.getElementById('error').textContent.includes('from 2 to 20') && document.getElementById('puzzle').value === '4x4';",
    )
    .await;

    // A shipped definition puzzle, drawn from its pattern with no page code of its own: the
    // skewb's two orbits, every piece at home, a button for each move and its inverse; two
    // moves clicked, solved in two, played back home.
    select(&client, "#puzzle", "skewb").await;
    assert_eq!(
        offered(&client).await,
        (vec!["metric".into()], vec!["htm".into(), "qtm".into()])
    );
    wait_until(
        &client,
        "the solved skewb",
        "return document.querySelectorAll('#view .orbit').length === 2 \
           && document.querySelectorAll('#view .piece.home').length === 14 \
           && document.querySelectorAll('#view .move-buttons button').length === 8;",
    )
    .await;
    let press = |m: &str| {
        format!("[...document.querySelectorAll('#view .move-buttons button')].find(b => b.textContent === \"{m}\").click();")
    };
    client.execute(&press("R"), vec![]).await.unwrap();
    wait_until(
        &client,
        "the skewb after R",
        "return document.getElementById('position').value === 'R';",
    )
    .await;
    client.execute(&press("U'"), vec![]).await.unwrap();
    wait_until(
        &client,
        "the skewb after R U'",
        "return document.getElementById('position').value === \"R U'\" \
           && document.querySelectorAll('#view .piece.home').length < 14;",
    )
    .await;
    click(&client, "#solve").await;
    wait_for_runs(&client, 5, "the skewb row").await;
    let rows = runs(&client).await;
    assert_eq!(rows[4][1], "skewb");
    assert_eq!(rows[4][3], "2", "{rows:?}");
    click(&client, "#play").await;
    wait_until(
        &client,
        "the skewb solved",
        "return document.getElementById('play-status').textContent.includes('solved') \
           && document.querySelectorAll('#view .piece.home').length === 14;",
    )
    .await;
    screenshot(&client, "skewb").await;

    // The 3x3x3 after one U turn: the net and the 3D view show the front's top row in the
    // right face's colour (red), the rest of the front green.
    select(&client, "#puzzle", "3x3x3").await;
    assert_eq!(
        offered(&client).await.0,
        ["metric", "optimal"].map(String::from).to_vec()
    );
    set_position(&client, "U").await;
    let front_colours = "const f = document.querySelectorAll('#cube3d .face3d')[2]; \
        return f ? [...f.children].map(s => getComputedStyle(s).backgroundColor) : [];";
    let (red, green) = ("rgb(196, 30, 58)", "rgb(0, 158, 96)");
    wait_until(
        &client,
        "the 3x3x3 after U",
        &format!("return document.querySelectorAll('#net rect').length === 54 && (() => {{ {front_colours} }})()[0] === '{red}';"),
    )
    .await;
    let front = client.execute(front_colours, vec![]).await.unwrap();
    let front: Vec<String> = serde_json::from_value(front).unwrap();
    assert!(front[..3].iter().all(|c| c == red), "{front:?}");
    assert!(front[3..].iter().all(|c| c == green), "{front:?}");
    screenshot(&client, "cube3").await;

    // The top face's orientation in 3D: after F its row beside the front is orange (from L),
    // and that row is drawn nearer the viewer (lower on the screen) than the row at the back.
    set_position(&client, "F").await;
    let orange = "rgb(255, 88, 0)";
    wait_until(
        &client,
        "the 3x3x3 after F",
        &format!("const u = document.querySelectorAll('#cube3d .face3d')[0]; return !!u && getComputedStyle(u.children[7]).backgroundColor === '{orange}';"),
    )
    .await;
    let rows = client
        .execute(
            "const u = document.querySelectorAll('#cube3d .face3d')[0].children; return [u[1].getBoundingClientRect().top, u[7].getBoundingClientRect().top];",
            vec![],
        )
        .await
        .unwrap();
    let rows: Vec<f64> = serde_json::from_value(rows).unwrap();
    assert!(
        rows[1] > rows[0],
        "the front row of U is drawn at the back: {rows:?}"
    );

    // The options of the chosen algorithm show, and go with the request: half-depth search
    // holding 16 moves solves the 31-move board optimally.
    select(&client, "#puzzle", "3x3").await;
    assert_eq!(
        offered(&client).await,
        (
            ["goal", "heuristic", "pdb"].map(String::from).to_vec(),
            vec![]
        )
    );
    let visible = |id: &str| {
        format!("return getComputedStyle(document.getElementById('{id}').parentElement).display !== 'none';")
    };
    select(&client, "#algorithm", "subgoal").await;
    for (id, shown) in [
        ("effort", true),
        ("stages", true),
        ("depth", false),
        ("max-length", false),
    ] {
        let is = client.execute(&visible(id), vec![]).await.unwrap();
        assert_eq!(is, json!(shown), "{id} with subgoal");
    }
    select(&client, "#algorithm", "half-depth").await;
    assert_eq!(
        client.execute(&visible("depth"), vec![]).await.unwrap(),
        json!(true)
    );
    assert_eq!(
        client.execute(&visible("effort"), vec![]).await.unwrap(),
        json!(false)
    );
    set_position(&client, board).await;
    let depth = client.find(Locator::Id("depth")).await.unwrap();
    depth.send_keys("16").await.unwrap();
    click(&client, "#solve").await;
    wait_for_runs(&client, 6, "the half-depth row").await;
    let rows = runs(&client).await;
    assert_eq!(
        [&rows[5][2], &rows[5][7], &rows[5][3], &rows[5][4]],
        ["half-depth", "positions within 16 moves held", "31", "yes"],
        "{rows:?}"
    );

    // A random board, drawn by the server: nine cells, a different position.
    click(&client, "#random").await;
    wait_until(
        &client,
        "a random board",
        "return document.getElementById('position').value !== '8,6,7,2,5,4,3,0,1' && document.querySelectorAll('#board .tile').length === 9;",
    )
    .await;

    // A hopeless search shows its progress and stops on Cancel with its lower bound: Korf's
    // #88 (65 moves, here for the blank-last goal) by IDA* with Manhattan, both directions
    // probed for a second each, the way probed and then the way chosen said as it runs.
    select(&client, "#puzzle", "4x4").await;
    set_position(&client, "12,10,6,0,9,8,13,15,11,7,3,2,5,4,14,1").await;
    select(&client, "#algorithm", "ida").await;
    select(&client, "#heuristic", "manhattan").await;
    select(&client, "#direction", "both").await;
    let probe = client.find(Locator::Id("probe")).await.unwrap();
    probe.send_keys("1").await.unwrap();
    click(&client, "#solve").await;
    wait_until(
        &client,
        "the first way's probe",
        "return document.getElementById('progress').textContent.includes('probing forwards (way 1 of 2), threshold');",
    )
    .await;
    wait_until(
        &client,
        "the way chosen",
        "const said = document.getElementById('progress').textContent; \
         return /(forwards|backwards) chosen by the probes, threshold/.test(said);",
    )
    .await;
    click(&client, "#cancel").await;
    wait_for_runs(&client, 7, "the stopped row").await;
    let rows = runs(&client).await;
    assert_eq!(rows[6][2], "ida (stopped)", "{rows:?}");
    assert!(rows[6][3].starts_with("≥ "), "{rows:?}");
    assert_eq!(
        rows[6][6], "continue",
        "a stopped search has nothing to play, and goes on instead: {rows:?}"
    );
    assert!(
        rows[6][7].contains("chosen by 1.00 s probes of 2 ways"),
        "{rows:?}"
    );
    let said = text(&client, "#progress").await;
    assert!(said.contains("every solution has at least"), "{said}");
    screenshot(&client, "stopped").await;

    // Continue searches on from the bound by the way the probes chose, alone: a new row, whose
    // request resumes from the stopped row's bound without probes.
    let bound = |row: &[String]| -> u64 { row[3].trim_start_matches("≥ ").parse().unwrap() };
    let stopped_at = bound(&rows[6]);
    click(&client, "#runs tbody tr:nth-child(7) .continue-run").await;
    wait_until(
        &client,
        "the search continued from its bound",
        &format!(
            "const said = document.getElementById('progress').textContent; \
             const at = said.match(/threshold (\\d+)/); \
             return !!at && Number(at[1]) >= {stopped_at} && !said.includes('prob');"
        ),
    )
    .await;
    click(&client, "#cancel").await;
    wait_for_runs(&client, 8, "the continued row").await;
    let rows = runs(&client).await;
    assert_eq!(rows[7][2], "ida (stopped)", "{rows:?}");
    assert!(bound(&rows[7]) >= stopped_at, "{rows:?}");
    assert!(!rows[7][7].contains("probes"), "one way alone: {rows:?}");
    let asked = "const r = state.runs[7].request; \
                 return [r.resume_from, 'probe' in r, 'both_ways' in r, r.heuristic];";
    assert_eq!(
        client.execute(asked, vec![]).await.unwrap(),
        json!([stopped_at, false, false, "manhattan"])
    );
    select(&client, "#direction", "forwards").await;
    probe.clear().await.unwrap();

    // The cancelled search has stopped within a second: health shows nothing running, and an
    // 8-puzzle solve answers within a second.
    let started = Instant::now();
    loop {
        let running = client
            .execute(
                "return fetch('/api/health').then(r => r.json()).then(h => h.running);",
                vec![],
            )
            .await
            .unwrap();
        if running == json!(0) {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "still running after a cancel: {running}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let asked = Instant::now();
    let length = client
        .execute(
            "return fetch('/api/solve', {method: 'POST', headers: {'Content-Type': 'application/json'}, \
             body: JSON.stringify({puzzle: '3x3', position: '8,6,7,2,5,4,3,0,1'})}).then(r => r.json()).then(r => r.length);",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(length, json!(31));
    assert!(
        asked.elapsed() < Duration::from_secs(1),
        "an 8-puzzle took {:?} after the cancel",
        asked.elapsed()
    );

    // Solve reads the board in the box, even without Set or Enter.
    select(&client, "#puzzle", "3x3").await;
    type_position(&client, "1,2,3,4,5,6,0,7,8").await;
    click(&client, "#solve").await;
    wait_for_runs(&client, 9, "the typed board's row").await;
    let rows = runs(&client).await;
    assert_eq!(
        rows[8][3], "2",
        "the board typed, not the one before: {rows:?}"
    );

    // A subgoal row's long stages text is cut, whole in its tooltip; the page does not scroll
    // sideways and the row's play button is in view.
    select(&client, "#algorithm", "subgoal").await;
    click(&client, "#solve").await;
    wait_for_runs(&client, 10, "the subgoal row").await;
    let fits = "const d = document.documentElement; return d.scrollWidth <= d.clientWidth;";
    assert_eq!(client.execute(fits, vec![]).await.unwrap(), json!(true));
    let play_in_view = client
        .execute(
            "const b = document.querySelector('#runs tbody tr:last-child .play-run').getBoundingClientRect(); \
             return b.right <= document.documentElement.clientWidth;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(play_in_view, json!(true));
    let tooltip = client
        .execute(
            "return document.querySelector('#runs tbody tr:last-child td:nth-child(8)').title;",
            vec![],
        )
        .await
        .unwrap();
    assert!(
        tooltip.as_str().unwrap().starts_with("stages "),
        "{tooltip}"
    );

    // A 24-puzzle board solved with no database cached: the page says which databases would
    // help and offers to build them (the build itself takes a minute: not run here).
    select(&client, "#puzzle", "5x5").await;
    select(&client, "#heuristic", "auto").await;
    type_position(
        &client,
        "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,0,24",
    )
    .await;
    click(&client, "#solve").await;
    wait_until(
        &client,
        "the hint to build the 24-puzzle's databases",
        "const b = document.querySelector('#hints .build-hint'); return !!b && !document.getElementById('solve').disabled;",
    )
    .await;
    assert_eq!(
        text(&client, "#hints .build-hint").await,
        "Build the 6-6-6-6 databases, then solve again"
    );
    assert!(text(&client, "#hints")
        .await
        .contains("no pattern database is cached"));
    select(&client, "#puzzle", "3x3").await;

    // Fields are checked before anything is sent, in words naming the field.
    let depth = client.find(Locator::Id("bfs-depth")).await.unwrap();
    depth.send_keys("abc").await.unwrap();
    click(&client, "#bfs").await;
    let said = text(&client, "#bfs-error").await;
    assert!(
        said.starts_with("Max depth takes a whole number of moves from 0 to"),
        "{said}"
    );
    assert_eq!(
        text(&client, "#bfs-progress").await,
        "",
        "nothing was started"
    );
    depth.clear().await.unwrap();
    let timeout = client.find(Locator::Id("timeout")).await.unwrap();
    timeout.send_keys("0").await.unwrap();
    click(&client, "#solve").await;
    let said = text(&client, "#error").await;
    assert!(
        said.starts_with("Timeout takes a number of seconds from 0.001"),
        "{said}"
    );
    timeout.clear().await.unwrap();
    assert_eq!(runs(&client).await.len(), 11, "no run was added");

    // The runs export as CSV and JSON, one line or object each.
    let exported = client
        .execute(
            "return [runsCsv().trim().split('\\n').length, JSON.parse(runsJson()).length];",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(exported, json!([12, 11]));

    // At phone width nothing scrolls sideways, with the runs and the levels, and for a cube.
    client.set_window_size(400, 900).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(client.execute(fits, vec![]).await.unwrap(), json!(true));
    screenshot(&client, "phone").await;
    select(&client, "#puzzle", "3x3x3").await;
    wait_until(
        &client,
        "the 3x3x3",
        "return document.querySelectorAll('#net rect').length === 54;",
    )
    .await;
    assert_eq!(client.execute(fits, vec![]).await.unwrap(), json!(true));
    screenshot(&client, "phone-cube").await;
    client.set_window_size(1150, 1300).await.unwrap();

    // The link taken after the first two runs opens their puzzle and position and solves
    // them again: the same two rows.
    client.goto("about:blank").await.unwrap();
    client.goto(&link).await.unwrap();
    wait_until(
        &client,
        "the runs of the link",
        "return document.querySelectorAll('#runs tbody tr').length === 2 && !document.getElementById('solve').disabled \
         && document.getElementById('position').value === '8,6,7,2,5,4,3,0,1';",
    )
    .await;
    let rows = runs(&client).await;
    assert_eq!(
        rows.iter()
            .map(|r| (r[2].as_str(), r[3].as_str()))
            .collect::<Vec<_>>(),
        [("ida", "31"), ("astar", "31")]
    );
    // The method's fields are the last run's: Solve asks for it again.
    let field = "return ['algorithm', 'heuristic'].map((id) => document.getElementById(id).value);";
    assert_eq!(
        client.execute(field, vec![]).await.unwrap(),
        json!(["astar", "linear-conflict"])
    );

    // A link to a run that probed both directions opens with its direction, probe and
    // timeout in their fields.
    let probed = json!([{
        "puzzle": "3x3", "position": "8,6,7,2,5,4,3,0,1", "algorithm": "ida",
        "heuristic": "manhattan", "both_ways": true, "probe": 0.001, "timeout": 30,
    }]);
    // (JSON without spaces, `&`, `=` or `+` reads back from the address as it was written.)
    let address = format!("{base}#puzzle=3x3&position=8,6,7,2,5,4,3,0,1&runs={probed}");
    client.goto("about:blank").await.unwrap();
    client.goto(&address).await.unwrap();
    wait_for_runs(&client, 1, "the probed run of the link").await;
    assert!(runs(&client).await[0][7].contains("probes of 2 ways"));
    let fields = "return ['algorithm', 'heuristic', 'direction', 'probe', 'timeout']\
                  .map((id) => [id, document.getElementById(id).value, \
                                document.getElementById(id).offsetParent !== null]);";
    assert_eq!(
        client.execute(fields, vec![]).await.unwrap(),
        json!([
            ["algorithm", "ida", true],
            ["heuristic", "manhattan", true],
            ["direction", "both", true],
            ["probe", "0.001", true],
            ["timeout", "30", true],
        ])
    );

    // Korf's goal on the 4x4, from a link: the Goal button shows it as solved, and solves,
    // scrambles and replays are for it. On the 4x4 no board reaches both goals, so a solve or
    // a draw that did not carry the goal would be refused or drawn for the other.
    client.goto("about:blank").await.unwrap();
    client
        .goto(&format!("{base}#puzzle=4x4&goal=blank-first"))
        .await
        .unwrap();
    wait_until(
        &client,
        "the goal of the link",
        "return document.getElementById('goal').value === 'blank-first' && !!document.getElementById('board');",
    )
    .await;
    click(&client, "#reset").await;
    let korf = "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15";
    wait_until(
        &client,
        "Korf's goal shown as solved",
        &format!("const b = document.getElementById('board'); return b.dataset.position === '{korf}' && b.classList.contains('solved');"),
    )
    .await;
    set_position(&client, "1,0,2,3,4,5,6,7,8,9,10,11,12,13,14,15").await;
    select(&client, "#algorithm", "ida").await;
    click(&client, "#solve").await;
    wait_for_runs(&client, 1, "the solve for Korf's goal").await;
    let row = &runs(&client).await[0];
    assert_eq!(
        (row[1].as_str(), row[3].as_str()),
        ("4x4 (goal blank-first)", "1"),
        "{row:?}"
    );
    let csv = client
        .execute("return runsCsv().trim().split('\\n');", vec![])
        .await
        .unwrap();
    assert!(
        csv[0]
            .as_str()
            .unwrap()
            .starts_with("number,puzzle,goal,start,")
            && csv[1]
                .as_str()
                .unwrap()
                .starts_with("1,4x4,blank-first,\"1,0,2,"),
        "{csv}"
    );
    let link = client.current_url().await.unwrap().to_string();
    assert!(link.contains("goal=blank-first"), "{link}");
    screenshot(&client, "korf-goal").await;
    click(&client, "#random").await;
    wait_until(
        &client,
        "a board drawn for Korf's goal",
        &format!("const p = document.getElementById('position').value; return p !== '' && p !== '{korf}' && p !== '1,0,2,3,4,5,6,7,8,9,10,11,12,13,14,15';"),
    )
    .await;
    // The board drawn is replayed for Korf's goal, and refused for the other (parity).
    let replayed = client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             const ask = (goal) => fetch('/api/replay', { method: 'POST', headers: { 'Content-Type': 'application/json' },
               body: JSON.stringify({ puzzle: '4x4', position: document.getElementById('position').value, solution: '', goal }) })
               .then((r) => r.status);
             Promise.all([ask('blank-first'), ask(undefined)]).then(done);",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(replayed, json!([200, 400]));
    // A goal that is no board of the puzzle is refused in the server's words, and nothing is
    // solved for it.
    client
        .execute(
            "const g = document.getElementById('goal'); g.value = '1,1'; g.dispatchEvent(new Event('change'));",
            vec![],
        )
        .await
        .unwrap();
    wait_until(
        &client,
        "the bad goal refused",
        "return document.getElementById('error').textContent !== '';",
    )
    .await;
    click(&client, "#solve").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_ne!(text(&client, "#error").await, "");
    assert_eq!(
        runs(&client).await.len(),
        1,
        "nothing solved for a bad goal"
    );
    // Another puzzle starts from its own goal.
    select(&client, "#puzzle", "3x3").await;
    wait_until(
        &client,
        "the 3x3 with its own goal",
        "return document.getElementById('goal').value === '' && document.getElementById('board').dataset.position === '1,2,3,4,5,6,7,8,0';",
    )
    .await;

    client.close().await.unwrap();
}
