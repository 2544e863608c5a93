"""What ALFWorld itself defines, read from the installed ``alfworld`` package at run time.

ALFWorld's games are only valid against ALFWorld's own domain, grammar and tables, so the export
never carries copies of them: a game made here holds the domain and grammar text of the ``alfworld``
that is installed (PyPI ``alfworld`` 0.4.2 with ``textworld`` 1.7.0, the optional extra
``alfred-gen[alfworld]``), and the room is described with that package's placement table
(``canContain``), capability tables (``heatable``, ``cleanable``, ...), class lists and goal
templates. Without the package the export stops with one line saying how to install it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from alfred_gen.errors import ExitCode, UserError

#: How to get the package (said in the error when it is missing).
INSTALL_HINT = "pip install 'alfred-gen[alfworld]'"

#: ALFWorld's capability tables (constants.VAL_ACTION_OBJECTS keys) -> the domain's predicates.
CAPABILITY_PREDICATES = {
    "Cleanable": "cleanable",
    "Heatable": "heatable",
    "Coolable": "coolable",
    "Toggleable": "toggleable",
    "Sliceable": "sliceable",
}


@dataclass(frozen=True)
class AlfworldRules:
    """ALFWorld's domain, grammar and tables, as one value.

    ``receptacle_classes`` are the fixed receptacle classes (its ``rtype`` constants);
    ``object_classes`` everything else it names (its ``otype`` constants, movable receptacles
    included); ``placement`` maps a receptacle class to the object classes it may hold;
    ``capabilities`` maps a domain predicate (``heatable``) to the classes that have it.
    """

    version: str
    domain: str
    grammar: str
    goals: Mapping[str, Mapping[str, Any]]
    task_types: tuple[str, ...]
    object_classes: frozenset[str]
    receptacle_classes: frozenset[str]
    movable_receptacles: frozenset[str]
    openable_classes: frozenset[str]
    placement: Mapping[str, frozenset[str]]
    capabilities: Mapping[str, frozenset[str]]

    def can_contain(self, receptacle_class: str, object_class: str) -> bool:
        """Whether ALFWorld's placement table lets ``object_class`` go into ``receptacle_class``."""
        return object_class in self.placement.get(receptacle_class, frozenset())

    def has(self, predicate: str, object_class: str) -> bool:
        """Whether objects of ``object_class`` get the capability ``predicate`` (``heatable``, ...)."""
        return object_class in self.capabilities.get(predicate, frozenset())


def _missing(error: ImportError) -> UserError:
    return UserError(f"the ALFWorld export needs the alfworld package ({error.name or error}): {INSTALL_HINT}",
                     ExitCode.MISSING_DEPENDENCY)


@lru_cache(maxsize=1)
def load_rules() -> AlfworldRules:
    """ALFWorld's rules from the installed package; UserError(MISSING_DEPENDENCY) without it."""
    try:
        import alfworld
        import alfworld.info as info
        from alfworld.agents.environment.alfred_tw_env import TASK_TYPES
        from alfworld.gen import constants, goal_library
    except ImportError as error:
        raise _missing(error) from None
    fixed = frozenset(constants.RECEPTACLES) - frozenset(constants.MOVABLE_RECEPTACLES)
    return AlfworldRules(
        version=str(getattr(alfworld, "__version__", "")),
        domain=Path(info.ALFRED_PDDL_PATH).read_text(encoding="utf-8"),
        grammar=Path(info.ALFRED_TWL2_PATH).read_text(encoding="utf-8"),
        goals={name: dict(entry) for name, entry in goal_library.gdict.items()},
        task_types=tuple(TASK_TYPES[key] for key in sorted(TASK_TYPES)),
        object_classes=frozenset(constants.OBJECTS_SET) - fixed,
        receptacle_classes=fixed,
        movable_receptacles=frozenset(constants.MOVABLE_RECEPTACLES),
        openable_classes=frozenset(constants.OPENABLE_CLASS_SET),
        placement={recep: frozenset(objs) for recep, objs in constants.VAL_RECEPTACLE_OBJECTS.items()},
        capabilities={predicate: frozenset(constants.VAL_ACTION_OBJECTS[table])
                      for table, predicate in CAPABILITY_PREDICATES.items()},
    )


def demangled_names(entity_ids: list[str]) -> dict[str, str]:
    """The names ALFWorld's ``AlfredDemangler`` (unshuffled) gives entities: ``countertop 1``.

    ``entity_ids`` are the PDDL names as ALFWorld's engine holds them (lower case); the names
    depend on the whole set (instances of a class are numbered in the order of their ids), so
    pass every entity that occurs in a fact of the problem. ALFWorld's own Demangler does the
    numbering, so the walkthrough names what the engine will name.
    """
    try:
        from alfworld.agents.utils.misc import Demangler
    except ImportError as error:
        raise _missing(error) from None

    @dataclass
    class _Info:  # the one attribute Demangler reads of textworld's EntityInfo
        id: str

    demangler = Demangler(game_infos={name: _Info(name) for name in entity_ids}, shuffle=False)
    return {name: demangler.demangle_alfred_name(name) for name in entity_ids}
