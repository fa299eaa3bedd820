//! A process-wide request to stop (set when the user interrupts a run with SIGINT
//! or SIGTERM): the tournament runner begins no unit after it, and an agent that
//! waits on something outside (an external bot) gives up its decision, so that a
//! run ends soon with every finished deal kept. Only a flag: who catches the
//! signal (the CLI, the Python package) sets it; a search agent (pimc,
//! ismcts) cut short by it fails its decision instead of deciding on less.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

static STOP: AtomicBool = AtomicBool::new(false);

/// Asks every run in this process to stop.
pub fn request_stop() {
    STOP.store(true, Ordering::SeqCst);
}

/// Withdraws the request (a process that goes on after an interrupted run:
/// Python, where the agents stay usable).
pub fn clear_stop() {
    STOP.store(false, Ordering::SeqCst);
}

thread_local! {
    /// The [`Cancel`] of the decision this thread is making, if any.
    static CANCEL: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// A stop for one decision rather than the whole process: [`Cancel::run`] makes
/// a decision on this thread, and [`Cancel::cancel`], from any thread, makes
/// [`stop_requested`] true inside it, so that a search past a server's time cap
/// gives up (fails) instead of running on. Searches that spread over threads of
/// their own (`pimc:threads=N`) see it on the calling thread only.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A stop not yet asked for.
    #[must_use]
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Asks the decision running under [`Cancel::run`] to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Whether [`Cancel::cancel`] was called.
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// Runs `f` on this thread under this stop (the thread's previous one, if
    /// any, back in force afterwards, also when `f` panics).
    pub fn run<R>(&self, f: impl FnOnce() -> R) -> R {
        struct Restore(Option<Arc<AtomicBool>>);
        impl Drop for Restore {
            fn drop(&mut self) {
                let previous = self.0.take();
                CANCEL.with(|c| *c.borrow_mut() = previous);
            }
        }
        let _restore = Restore(CANCEL.with(|c| c.borrow_mut().replace(self.0.clone())));
        f()
    }
}

/// Whether a stop was asked for: of the whole process, or of the decision this
/// thread is making ([`Cancel`]).
#[must_use]
pub fn stop_requested() -> bool {
    STOP.load(Ordering::Relaxed)
        || CANCEL.with(|c| c.borrow().as_ref().is_some_and(|f| f.load(Ordering::Relaxed)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Agent;

    #[test]
    fn a_cancelled_search_gives_up_its_decision_soon() {
        // A pimc decision that would take minutes, cancelled from another thread.
        let mut agent = crate::build_agent("pimc:worlds=100000:adaptive=0:threads=1").unwrap();
        let mut rule = crate::RuleAgent::new(Default::default());
        let mut rng = crate::rng_from_seed(1);
        // The first card decision with a choice, in the first deal that has one.
        let hand = (0..50)
            .find_map(|seed| {
                let mut hand = tresillo_core::Hand::new(
                    tresillo_core::RuleSet::TRESILLO,
                    3,
                    crate::deal_for_seed(seed),
                    tresillo_core::Seat(0),
                )
                .unwrap();
                while let Some(seat) = hand.request().seat() {
                    if matches!(hand.request(), tresillo_core::Request::Play { legal, .. } if legal.len() > 1)
                    {
                        return Some(hand);
                    }
                    let d = rule.decide(&hand.view(seat), &mut rng).unwrap();
                    hand.apply(d).unwrap();
                }
                None
            })
            .unwrap();
        let seat = hand.request().seat().unwrap();
        let cancel = Cancel::new();
        let c = cancel.clone();
        let stopper = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(100));
            c.cancel();
        });
        let start = std::time::Instant::now();
        let d = cancel.run(|| agent.decide(&hand.view(seat), &mut rng));
        stopper.join().unwrap();
        assert!(d.is_err(), "a cancelled search fails its decision");
        assert!(start.elapsed() < std::time::Duration::from_secs(5), "{:?}", start.elapsed());
        // The thread's stop is withdrawn afterwards, and the process-wide one was never set.
        assert!(!stop_requested());
    }
}
