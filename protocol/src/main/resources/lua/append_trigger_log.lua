-- append_trigger_log: add a batch of one trigger's handler log lines to its capped log and tell
-- persistence-sync, atomically (both keys carry the trigger's shard hash tag).
--
-- KEYS[1]  the trigger's log ZSET   kairos:{s}:triggerlog:<triggerId>  (score = seq, member =
--          LogLine.encode() = <seq>\t<tsMs>\t<level>\t<text>)
-- KEYS[2]  the shard's STREAM       kairos:{s}:events
-- ARGV[1]  TTL of the log in ms, renewed by every batch
-- ARGV[2]  approximate MAXLEN of the events stream
-- ARGV[3]  trigger id
-- ARGV[4]  job id
-- ARGV[5]  scheduled fire time of the trigger (epoch ms; the history's retention key)
-- ARGV[6..] pairs: seq, LogLine.encodeBody() = <tsMs>\t<level>\t<text>
--
-- The caps are the executor's (one run is shipped by one executor, which counts its lines); a
-- replayed batch re-adds the same members, so a retry is idempotent, and batches may land in any
-- order. Appends one TRIGGER_LOG event with a field L<seq> per line.
-- Returns the number of lines in the batch.
local zargs = {}
local fields = {'type', 'TRIGGER_LOG', 'triggerId', ARGV[3], 'jobId', ARGV[4], 'fireMs', ARGV[5]}
for i = 6, #ARGV, 2 do
  zargs[#zargs + 1] = ARGV[i]
  zargs[#zargs + 1] = ARGV[i] .. '\t' .. ARGV[i + 1]
  fields[#fields + 1] = 'L' .. ARGV[i]
  fields[#fields + 1] = ARGV[i + 1]
end
if #zargs == 0 then
  return 0
end
redis.call('ZADD', KEYS[1], unpack(zargs))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[2], '*', unpack(fields))
return #zargs / 2
