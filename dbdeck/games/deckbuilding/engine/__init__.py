"""The rules engine: headless, deterministic, driven by actions."""
