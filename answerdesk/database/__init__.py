"""The database beneath the app, one module per concern.

- sqlite.py: an SQLite engine's tuning (WAL, busy timeout, BEGIN IMMEDIATE behind the
  writer queue; the lean path's raw BEGIN)
- writer_queue.py: SQLite's write lock handed from one transaction to the next
- checkpoints.py: the write-ahead log copied back beside the saves, never inside one
- readonly.py: transactions that only read (read_only, reads_only, read_write)
- postgres_locks.py: PostgreSQL's queue lock of a round (saves shared, round moves
  exclusive)
- busy.py: a write that waited too long for a lock, refused as busy (PostgreSQL's
  lock_timeout; which drivers' errors mean "not now")
"""
