package dev.kairos.alarm;

import dev.kairos.core.alarm.AlarmRecipients;
import java.util.List;

/**
 * The channels of an alarm's own recipients ({@link dev.kairos.core.alarm.Alarm#recipients()}: a
 * failed job's alarm emails and webhooks), which {@link AlarmService} delivers to besides its
 * configured channels. Called on the thread that raises the alarm, so it must not block.
 */
@FunctionalInterface
public interface RecipientChannels {

  /** No channels for anybody: only the configured ones get alarms. */
  RecipientChannels NONE = recipients -> List.of();

  /** The channels to deliver to, empty when {@code recipients} is empty. */
  List<AlarmChannel> channelsFor(AlarmRecipients recipients);
}
