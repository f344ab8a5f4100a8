"""The review's judgement of its own findings: whose side we are on, which clause a finding is about, what
its numbers mean, and whether its words are the contract's. See ``docs/review-quality.md``."""
