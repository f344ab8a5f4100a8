"""Where a missing clause goes, and the number it takes.

``place`` decides the place (the section the clause belongs to, before the signatures and the front matter's
end); ``outline`` reads the contract's sections as a drafter numbered them; ``numbers`` parses and continues
clause numbers ("4.2(b)", "ARTICLE X"). Measured by ``redline.evaluation.placement_audit``.
"""
