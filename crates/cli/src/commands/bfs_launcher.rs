//! `bfs --processes K`: the launcher that starts K copies of this command on this machine, on
//! loopback, relays their errors, and stops them all when one fails or the launcher is ended.

use crate::args::BfsArgs;
use crate::errors::{InputError, EXIT_BAD_INPUT};
use crate::machine::DEFAULT_MEMORY_SHARE;
use anyhow::{anyhow, Context, Result};
use std::ffi::OsString;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long the launcher waits for the other processes to stop by themselves once one has
/// failed (they notice a lost connection within a second or two), before it kills them.
const GRACE: Duration = Duration::from_secs(20);
/// How often the launcher looks at its processes.
const POLL: Duration = Duration::from_millis(50);

/// The hostfile folders the launcher makes in the system's temporary folder start with this,
/// then the launcher's process id and a dash: a launcher that was killed (SIGKILL leaves it no
/// last words) leaves its folder, and the next launch removes it once that process is gone.
const HOSTFILE_FOLDER_PREFIX: &str = "godsearch-hosts-";
/// How long the launcher, interrupted, waits for its processes to stop on SIGTERM (each removes
/// its temporary files and lets go of the level folder) before it kills them.
const STOP_PATIENCE: Duration = Duration::from_secs(10);

/// Set by the launcher's last words when a signal ends it: [`wait_all`] then stops every
/// process and says so on the channel the last words wait on.
static STOPPING: AtomicBool = AtomicBool::new(false);

/// Starts `processes` copies of this command on loopback (free ports, a hostfile in a
/// temporary folder), each with `--process I --hostfile F` added, and with `--memory` split
/// among them unless given; process 0 prints the report, the others' errors are relayed with
/// their number. Fails, naming it, when a process fails.
///
/// The processes die with the launcher: each is started with a parent-death signal (SIGTERM,
/// which they answer as an interrupt), and a launcher ended by SIGINT, SIGTERM or SIGHUP first
/// stops them, waits for them, and removes the hostfile folder. So `--resume` can follow at
/// once, and nothing keeps running or stays in the temporary folder.
pub(crate) fn launch(processes: usize, args: &BfsArgs) -> Result<()> {
    remove_stale_hostfile_folders();
    let ports = free_ports(processes)?;
    let folder = tempfile::Builder::new()
        .prefix(&format!("{HOSTFILE_FOLDER_PREFIX}{}-", std::process::id()))
        .tempdir()
        .context("a folder for the hostfile")?;
    let hostfile = folder.path().join("hosts");
    let lines: String = ports.iter().map(|p| format!("127.0.0.1:{p}\n")).collect();
    std::fs::write(&hostfile, lines).with_context(|| format!("{}", hostfile.display()))?;
    let exe = std::env::current_exe().context("finding this program to start it again")?;
    let mut common: Vec<OsString> = std::env::args_os().skip(1).collect();
    if args.memory.is_none() {
        let share = DEFAULT_MEMORY_SHARE * 100.0 / processes as f64;
        common.extend(["--memory".into(), format!("{share:.1}%").into()]);
    }
    let (stopped_tx, stopped_rx) = mpsc::channel::<()>();
    let folder_path = folder.path().to_path_buf();
    crate::interrupt::on_interrupt(Box::new(move || {
        STOPPING.store(true, Ordering::SeqCst);
        let _ = stopped_rx.recv_timeout(STOP_PATIENCE + GRACE);
        let _ = std::fs::remove_dir_all(&folder_path);
    }));
    let mut children = Vec::with_capacity(processes);
    for i in 0..processes {
        let mut command = Command::new(&exe);
        command
            .args(&common)
            .args(["--process", &i.to_string(), "--hostfile"])
            .arg(&hostfile);
        if i > 0 {
            command.stdout(Stdio::null()).stderr(Stdio::piped());
        }
        die_with_this_process(&mut command);
        let spawned = command
            .spawn()
            .with_context(|| format!("starting process {i}"));
        let mut child = match spawned {
            Ok(child) => child,
            Err(e) => {
                stop(&mut children);
                return Err(e);
            }
        };
        if let Some(stderr) = child.stderr.take() {
            relay(i, stderr);
        }
        children.push(child);
    }
    let result = wait_all(children, &stopped_tx);
    crate::interrupt::clear_on_interrupt();
    result
}

/// Has the kernel send SIGTERM to the started process when this one dies, however it dies
/// (SIGKILL included); a process whose launcher is already gone by the time it starts does not
/// start.
fn die_with_this_process(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    let launcher = std::process::id();
    // SAFETY: the closure runs in the child between fork and exec, and makes only two system
    // calls, prctl and getppid, both async-signal-safe; it touches no memory of the parent.
    #[allow(unsafe_code)]
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            if libc::getppid() as u32 != launcher {
                return Err(std::io::Error::other("the launcher has ended"));
            }
            Ok(())
        });
    }
}

/// Removes the hostfile folders of launchers that no longer run (killed before they could).
fn remove_stale_hostfile_folders() {
    let Ok(listing) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in listing.map_while(Result::ok) {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name
            .strip_prefix(HOSTFILE_FOLDER_PREFIX)
            .and_then(|rest| rest.split_once('-'))
            .and_then(|(pid, _)| pid.parse::<u32>().ok())
        else {
            continue;
        };
        let alive = Path::new("/proc").join(pid.to_string()).exists();
        if !alive && entry.file_type().is_ok_and(|t| t.is_dir()) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Asks every process still running to stop (SIGTERM, as an interrupt), waits up to
/// [`STOP_PATIENCE`] for them, then kills the rest; reaps them all.
fn stop<'a>(children: impl IntoIterator<Item = &'a mut Child>) {
    let mut running: Vec<&mut Child> = children.into_iter().collect();
    for child in running.iter() {
        // SAFETY: kill only sends a signal to a process id this launcher started and has not
        // reaped, so the id is still that process's.
        #[allow(unsafe_code)]
        unsafe {
            libc::kill(child.id() as libc::pid_t, libc::SIGTERM);
        }
    }
    let since = Instant::now();
    while !running.is_empty() && since.elapsed() < STOP_PATIENCE {
        running.retain_mut(|c| matches!(c.try_wait(), Ok(None)));
        std::thread::sleep(POLL);
    }
    for child in running {
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// `count` ports free on loopback now (listeners bound together, so they differ, then closed).
fn free_ports(count: usize) -> Result<Vec<u16>> {
    let listeners = (0..count)
        .map(|_| TcpListener::bind("127.0.0.1:0"))
        .collect::<std::io::Result<Vec<_>>>()
        .context("finding free ports on loopback")?;
    listeners
        .iter()
        .map(|l| Ok(l.local_addr()?.port()))
        .collect()
}

/// Copies a process's stderr to ours, each line marked with its number.
fn relay(process: usize, stderr: std::process::ChildStderr) {
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = writeln!(std::io::stderr(), "[process {process}] {line}");
        }
    });
}

/// Waits for every process; after the first failure, gives the others [`GRACE`] to stop.
/// Once the launcher is interrupted ([`STOPPING`]), stops them all, tells `stopped` and waits
/// for the interrupt to end this process.
fn wait_all(mut children: Vec<Child>, stopped: &mpsc::Sender<()>) -> Result<()> {
    let mut done: Vec<Option<ExitStatus>> = vec![None; children.len()];
    let mut first_failure: Option<(usize, Instant)> = None;
    while done.iter().any(Option::is_none) {
        if STOPPING.load(Ordering::SeqCst) {
            let unreaped = children
                .iter_mut()
                .zip(&done)
                .filter(|(_, status)| status.is_none())
                .map(|(child, _)| child);
            stop(unreaped);
            let _ = stopped.send(());
            // The interrupt thread ends the process now, the way the signal asks.
            loop {
                std::thread::park();
            }
        }
        for (i, child) in children.iter_mut().enumerate() {
            if done[i].is_none() {
                if let Some(status) = child.try_wait().context("waiting for a process")? {
                    done[i] = Some(status);
                    if !status.success() && first_failure.is_none() {
                        first_failure = Some((i, Instant::now()));
                    }
                }
            }
        }
        if let Some((_, since)) = first_failure {
            if since.elapsed() > GRACE {
                for (i, child) in children.iter_mut().enumerate() {
                    if done[i].is_none() {
                        let _ = child.kill();
                        done[i] = Some(child.wait().context("waiting for a process")?);
                    }
                }
            }
        }
        std::thread::sleep(POLL);
    }
    let Some((first, _)) = first_failure else {
        return Ok(());
    };
    let status = done[first].expect("waited");
    let said = describe(status);
    if status.code() == Some(i32::from(EXIT_BAD_INPUT)) {
        return Err(InputError(format!("process {first} {said}")).into());
    }
    Err(anyhow!("process {first} {said}; see the messages above"))
}

fn describe(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exited with status {code}"),
        (None, Some(signal)) => format!("was killed by signal {signal}"),
        (None, None) => "ended".into(),
    }
}
