"""Evaluation harnesses: they measure the product on CUAD's dev split (routing recall, placement, review
quality). The product never imports them; the command line runs them (``redline clauses-routing``,
``redline clauses-placement``, ``redline review-eval``)."""
