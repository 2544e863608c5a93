; The household domain of alfred-gen: ALFRED's high-level actions in plain STRIPS with typing.
;
; Written for the PDDL subset pyperplan parses, so that pyperplan, Fast Downward and our own FF-style
; search all read the same files: no negative preconditions, no equality, no quantifiers, no
; conditional effects, no costs.  Hence:
;   - complement predicates instead of negation: handEmpty/holding, isOpen/isClosed, isWhole/isSliced,
;     isOff/isOn;
;   - split actions instead of conditional effects: picking up from (putting into, slicing in) a
;     fixed receptacle or a movable one (a pot, a bowl) are separate actions; so is putting down a
;     slice where only slices may go (a bread slice into a toaster: canContainSlice), since what
;     may go where depends on whether the object is cut (canContain holds for both forms);
;   - ALFRED's type-level goals ("some Apple is hot and in some CounterTop") are final goal actions
;     compiled from the task templates in tasks.json and appended to this file; they guard their
;     parameters with the static (isType ?x ?class) and achieve the single goal fact (goalReached).
;
; Locations are agent poses: the interaction pose of every relevant fixed receptacle (as ALFRED's
; openable.json) plus the start.  A pickupable has no location of its own: it is where its container
; is, one level deep (item in a fixed receptacle) or two (item in a movable receptacle in a fixed
; one).  That keeps the encoding exact when a pot is carried with an apple inside.
;
; isOpen means "the inside can be reached": it holds from the start for receptacles that do not
; enclose their contents (tables, counter tops, sink basins), and for fridges, microwaves, cabinets,
; drawers and safes (the static (openable ?r)) only after OpenObject; only those open and close.
; Only lamps of the task are (toggleable ?t).
; Slicing makes new objects (THOR's AppleSliced_1, ...): whatever was done to the whole object, heated,
; cooled or cleaned, does not hold for the slices, so SliceObject deletes those facts.
; Heating, cooling and cleaning are ALFRED's macro actions (open, put in, close, switch on/off, take
; out, ...): the microwave or fridge must be closed before and is closed again after.

(define (domain alfred-household)
  (:requirements :strips :typing)
  (:types
    location thing class - object
    fixed item - thing
    mover - item)

  (:predicates
    (atLocation ?l - location)
    (fixedAt ?x - fixed ?l - location)
    (inReceptacle ?o - item ?r - thing)
    (canContain ?r - thing ?o - item)
    (canContainSlice ?r - fixed ?o - item)
    (handEmpty)
    (holding ?o - item)
    (openable ?r - fixed)
    (isOpen ?r - fixed)
    (isClosed ?r - fixed)
    (isWhole ?o - item)
    (isSliced ?o - item)
    (canSlice ?k - item)
    (canHeat ?r - fixed)
    (canCool ?r - fixed)
    (canClean ?r - fixed)
    (isHot ?o - item)
    (isCool ?o - item)
    (isClean ?o - item)
    (toggleable ?t - fixed)
    (isOff ?t - fixed)
    (isOn ?t - fixed)
    (isType ?x - thing ?c - class)
    (different ?a - item ?b - item)
    (goalReached)
    ; @task-predicates: the guards of the compiled goal actions go here
    )

  (:action GotoLocation
    :parameters (?from - location ?to - location)
    :precondition (atLocation ?from)
    :effect (and (atLocation ?to) (not (atLocation ?from))))

  (:action OpenObject
    :parameters (?r - fixed ?l - location)
    :precondition (and (atLocation ?l) (fixedAt ?r ?l) (openable ?r) (isClosed ?r))
    :effect (and (isOpen ?r) (not (isClosed ?r))))

  (:action CloseObject
    :parameters (?r - fixed ?l - location)
    :precondition (and (atLocation ?l) (fixedAt ?r ?l) (openable ?r) (isOpen ?r))
    :effect (and (isClosed ?r) (not (isOpen ?r))))

  (:action PickupObject
    :parameters (?o - item ?r - fixed ?l - location)
    :precondition (and (atLocation ?l) (fixedAt ?r ?l) (isOpen ?r) (inReceptacle ?o ?r) (handEmpty))
    :effect (and (holding ?o) (not (handEmpty)) (not (inReceptacle ?o ?r))))

  (:action PickupObjectFromMovable
    :parameters (?o - item ?m - mover ?r - fixed ?l - location)
    :precondition (and (atLocation ?l) (fixedAt ?r ?l) (isOpen ?r) (inReceptacle ?m ?r)
                       (inReceptacle ?o ?m) (handEmpty))
    :effect (and (holding ?o) (not (handEmpty)) (not (inReceptacle ?o ?m))))

  (:action PutObject
    :parameters (?o - item ?r - fixed ?l - location)
    :precondition (and (atLocation ?l) (fixedAt ?r ?l) (isOpen ?r) (canContain ?r ?o) (holding ?o))
    :effect (and (inReceptacle ?o ?r) (handEmpty) (not (holding ?o))))

  (:action PutSliceObject
    :parameters (?o - item ?r - fixed ?l - location)
    :precondition (and (atLocation ?l) (fixedAt ?r ?l) (isOpen ?r) (canContainSlice ?r ?o) (isSliced ?o)
                       (holding ?o))
    :effect (and (inReceptacle ?o ?r) (handEmpty) (not (holding ?o))))

  (:action PutObjectInMovable
    :parameters (?o - item ?m - mover ?r - fixed ?l - location)
    :precondition (and (atLocation ?l) (fixedAt ?r ?l) (isOpen ?r) (inReceptacle ?m ?r)
                       (canContain ?m ?o) (holding ?o))
    :effect (and (inReceptacle ?o ?m) (handEmpty) (not (holding ?o))))

  (:action HeatObject
    :parameters (?o - item ?r - fixed ?l - location)
    :precondition (and (atLocation ?l) (fixedAt ?r ?l) (canHeat ?r) (isClosed ?r) (canContain ?r ?o)
                       (holding ?o))
    :effect (and (isHot ?o) (not (isCool ?o))))

  (:action CoolObject
    :parameters (?o - item ?r - fixed ?l - location)
    :precondition (and (atLocation ?l) (fixedAt ?r ?l) (canCool ?r) (isClosed ?r) (canContain ?r ?o)
                       (holding ?o))
    :effect (and (isCool ?o) (not (isHot ?o))))

  (:action CleanObject
    :parameters (?o - item ?r - fixed ?l - location)
    :precondition (and (atLocation ?l) (fixedAt ?r ?l) (canClean ?r) (canContain ?r ?o) (holding ?o))
    :effect (isClean ?o))

  (:action SliceObject
    :parameters (?o - item ?k - item ?r - fixed ?l - location)
    :precondition (and (atLocation ?l) (fixedAt ?r ?l) (isOpen ?r) (inReceptacle ?o ?r) (isWhole ?o)
                       (canSlice ?k) (holding ?k))
    :effect (and (isSliced ?o) (not (isWhole ?o)) (not (isHot ?o)) (not (isCool ?o)) (not (isClean ?o))))

  (:action SliceObjectInMovable
    :parameters (?o - item ?k - item ?m - mover ?r - fixed ?l - location)
    :precondition (and (atLocation ?l) (fixedAt ?r ?l) (isOpen ?r) (inReceptacle ?m ?r)
                       (inReceptacle ?o ?m) (isWhole ?o) (canSlice ?k) (holding ?k))
    :effect (and (isSliced ?o) (not (isWhole ?o)) (not (isHot ?o)) (not (isCool ?o)) (not (isClean ?o))))

  (:action ToggleObject
    :parameters (?t - fixed ?l - location)
    :precondition (and (atLocation ?l) (fixedAt ?t ?l) (toggleable ?t) (isOff ?t))
    :effect (and (isOn ?t) (not (isOff ?t))))

  ; @goal-actions: the goal actions compiled from tasks.json go here
)
