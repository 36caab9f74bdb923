"""Global optimistic analyses: sparse conditional constant propagation and
Click's combined analysis (constants + reachability + congruence)."""
