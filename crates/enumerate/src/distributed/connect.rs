//! Connecting the processes of a run, before timely takes the sockets over.
//!
//! As timely does it: every process listens on its own address and connects to every process
//! before it. Unlike timely's own set-up (which prints to stdout and waits forever for a
//! process that never starts), this prints nothing, gives up after a deadline naming the
//! process that did not come, and begins with a handshake in which both ends check that they
//! run the same enumeration (same space, options and worker count): a process started with
//! other options is refused by name instead of exchanging states that mean something else.

use super::DistributedError;
use std::io::{self, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// The first bytes of a handshake: "godsearch distributed, version 1".
const MAGIC: u64 = 0x6764_7364_6973_7401;
/// How long between attempts to reach a process not yet listening, or accepting.
const RETRY: Duration = Duration::from_millis(25);

/// One socket for every other process (`None` at `me`), connected and checked.
pub(crate) fn connect(
    addresses: &[String],
    me: usize,
    run_tag: u64,
    patience: Duration,
) -> Result<Vec<Option<TcpStream>>, DistributedError> {
    let deadline = Instant::now() + patience;
    let failed = |what: String| DistributedError::Start(what);
    let listener = TcpListener::bind(&addresses[me]).map_err(|e| {
        failed(format!(
            "listening on {} (process {me}): {e}",
            addresses[me]
        ))
    })?;
    listener
        .set_nonblocking(true)
        .map_err(|e| failed(format!("{}: {e}", addresses[me])))?;
    let mut sockets: Vec<Option<TcpStream>> = (0..addresses.len()).map(|_| None).collect();
    for (peer, address) in addresses.iter().enumerate().take(me) {
        let stream = loop {
            match TcpStream::connect(address) {
                Ok(s) => break s,
                Err(_) if Instant::now() < deadline => sleep(RETRY),
                Err(e) => {
                    return Err(failed(format!(
                        "process {peer} at {address} did not answer within {} s ({e})",
                        patience.as_secs()
                    )))
                }
            }
        };
        let stream = handshake(stream, me, peer, run_tag, deadline)
            .map_err(|e| failed(format!("process {peer} at {address}: {e}")))?;
        sockets[peer] = Some(stream);
    }
    while let Some(missing) = (me + 1..addresses.len()).find(|&p| sockets[p].is_none()) {
        match listener.accept() {
            Ok((stream, _)) => {
                let (peer, stream) = greet(stream, me, addresses.len(), run_tag, deadline)
                    .map_err(|e| failed(format!("a process connecting to process {me}: {e}")))?;
                sockets[peer] = Some(stream);
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock && Instant::now() < deadline => {
                sleep(RETRY)
            }
            Err(e) => {
                return Err(failed(format!(
                    "process {missing} ({}) did not connect within {} s ({e})",
                    addresses[missing],
                    patience.as_secs()
                )))
            }
        }
    }
    Ok(sockets)
}

/// The connecting end: says who it is and what it runs, and checks the answer.
fn handshake(
    mut stream: TcpStream,
    me: usize,
    peer: usize,
    run_tag: u64,
    deadline: Instant,
) -> io::Result<TcpStream> {
    prepare(&stream, deadline)?;
    write_hello(&mut stream, me, run_tag)?;
    let (index, tag) = read_hello(&mut stream)?;
    check(index == peer, "answered as another process")?;
    check(
        tag == run_tag,
        "runs another enumeration (its options differ from this process's)",
    )?;
    Ok(stream)
}

/// The accepting end: reads who connected, checks it, and answers.
fn greet(
    mut stream: TcpStream,
    me: usize,
    processes: usize,
    run_tag: u64,
    deadline: Instant,
) -> io::Result<(usize, TcpStream)> {
    prepare(&stream, deadline)?;
    let (index, tag) = read_hello(&mut stream)?;
    // Answered before checking, so that the other end can tell what is wrong too.
    write_hello(&mut stream, me, run_tag)?;
    check(
        index > me && index < processes,
        "gave an index out of place",
    )?;
    check(
        tag == run_tag,
        "runs another enumeration (its options differ from this process's)",
    )?;
    Ok((index, stream))
}

fn prepare(stream: &TcpStream, deadline: Instant) -> io::Result<()> {
    stream.set_nonblocking(false)?;
    stream.set_nodelay(true)?;
    let left = deadline
        .saturating_duration_since(Instant::now())
        .max(RETRY);
    stream.set_read_timeout(Some(left))
}

fn write_hello(stream: &mut TcpStream, me: usize, run_tag: u64) -> io::Result<()> {
    let mut hello = [0u8; 24];
    hello[..8].copy_from_slice(&MAGIC.to_le_bytes());
    hello[8..16].copy_from_slice(&(me as u64).to_le_bytes());
    hello[16..].copy_from_slice(&run_tag.to_le_bytes());
    stream.write_all(&hello)
}

fn read_hello(stream: &mut TcpStream) -> io::Result<(usize, u64)> {
    let mut hello = [0u8; 24];
    stream.read_exact(&mut hello)?;
    let word = |i: usize| u64::from_le_bytes(hello[i..i + 8].try_into().expect("8 bytes"));
    check(
        word(0) == MAGIC,
        "is not a godsearch process of this version",
    )?;
    Ok((word(8) as usize, word(16)))
}

fn check(ok: bool, why: &str) -> io::Result<()> {
    match ok {
        true => Ok(()),
        false => Err(io::Error::new(io::ErrorKind::InvalidData, why.to_string())),
    }
}
