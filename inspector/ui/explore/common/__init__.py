"""What every Explore panel shares: capability gating, the task helpers and small widgets."""
