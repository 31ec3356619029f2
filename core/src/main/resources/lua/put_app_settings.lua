-- put_app_settings.lua: replaces the settings of one executor app, atomically.
--
-- KEYS[1]  kairos:{app:<name>}:settings  HASH  description, defaultRouting, updatedMs
--
-- ARGV[1]  description ('' for none)
-- ARGV[2]  default routing strategy name, '' for none (jobs then take the global default)
-- ARGV[3]  now, epoch ms (cluster time): updatedMs
--
-- Returns 'OK'

redis.call('HSET', KEYS[1], 'description', ARGV[1], 'updatedMs', ARGV[3])
if ARGV[2] == '' then
  redis.call('HDEL', KEYS[1], 'defaultRouting')
else
  redis.call('HSET', KEYS[1], 'defaultRouting', ARGV[2])
end
return 'OK'
