"""The migration engine: what every rule in codemods/rules/ is built on (the Rule contract: docs/adding.md).

- `rule`: the `Rule` base class (an id, a level, CLAIMS, report entries, per-file state).
- `apply`: every selected rule over one module in a single libcst pass, claims arbitrating who rewrites a name.
- `quiet`: the statements no active rule can act on (Rule.WORDS), which the pass skips whole.
- `node_types`: which libcst node types can hold which (the pass does not descend where no rule looks).
- `names`: the cheap import/alias table of a module (qualified names without full scope analysis).
- `imports`: the imports rules schedule and the unused ones they drop.
- `positions`: line/column of a node for report entries.
- `syntax`: node helpers the rules share (dotted names, chains, import placement).
- `tree`: what one file's migration learns from the rest of its tree (a program importing a graph library).

Imports point down: rules import the engine; the engine never imports a rule. What drives the engine
for one file (`codemods._migrate_file`) and for a tree (`codemods._migrate_tree`) lives above it.
This package's `__init__` imports nothing, so a run served from the cache never loads libcst.
"""
