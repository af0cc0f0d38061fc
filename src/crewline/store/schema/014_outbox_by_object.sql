-- The entries for one object in its lane, in order (the redraws a dispatched redraw or post
-- covers): a seek to them, where the lane's index walked every entry queued in the lane.
CREATE INDEX outbox_by_object ON outbox(transport, lane, object_key, id);
