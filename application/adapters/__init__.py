"""Adapters: the one door to eventsourcing and the databases behind it (:mod:`.eventstore`)."""
