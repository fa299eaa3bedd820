//! A decision cancelled from another thread (interrupt::Cancel): the search
//! gives it up soon, and the process-wide stop is untouched.

use tresillo_agents::Agent;
use tresillo_agents::interrupt::{self, Cancel};

#[test]
fn a_cancelled_search_gives_up_its_decision_soon() {
    // A pimc decision that would take minutes, cancelled from another thread.
    let mut agent = tresillo_agents::build_agent("pimc:worlds=100000:adaptive=0:threads=1").unwrap();
    let mut rule = tresillo_agents::RuleAgent::new(Default::default());
    let mut rng = tresillo_agents::rng_from_seed(1);
    // The first card decision with a choice, in the first deal that has one.
    let hand = (0..50)
        .find_map(|seed| {
            let mut hand = tresillo_core::Hand::new(
                tresillo_core::RuleSet::TRESILLO,
                3,
                tresillo_agents::deal_for_seed(seed),
                tresillo_core::Seat(0),
            )
            .unwrap();
            while let Some(seat) = hand.request().seat() {
                if matches!(hand.request(), tresillo_core::Request::Play { legal, .. } if legal.len() > 1) {
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
    assert!(!interrupt::stop_requested());
}
