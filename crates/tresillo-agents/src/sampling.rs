//! What a seat can infer from the public play (`infer`) and the worlds consistent
//! with its view, drawn exactly uniformly (`sampler`), for the agents that search.

pub mod infer;
pub mod likelihood;
pub mod model;
pub mod sampler;
