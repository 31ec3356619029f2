package dev.kairos.alarm.email;

import dev.kairos.alarm.AlarmChannel;
import dev.kairos.alarm.AlarmDeliveryException;
import dev.kairos.alarm.AlarmNotice;
import dev.kairos.alarm.AlarmText;
import dev.kairos.alarm.RetryPolicy;
import java.util.List;
import org.springframework.mail.MailAuthenticationException;
import org.springframework.mail.MailException;
import org.springframework.mail.MailParseException;
import org.springframework.mail.MailPreparationException;
import org.springframework.mail.SimpleMailMessage;
import org.springframework.mail.javamail.JavaMailSender;

/**
 * Sends each notice as a plain-text mail through Spring's {@link JavaMailSender} (configured by
 * {@code spring.mail.*}, whose password is never logged). Authentication and malformed-address
 * failures are not retried; a refused or dropped SMTP connection is.
 */
public final class EmailAlarmChannel implements AlarmChannel {

  private final String name;
  private final JavaMailSender sender;
  private final String from;
  private final List<String> to;
  private final RetryPolicy retry;

  public EmailAlarmChannel(JavaMailSender sender, String from, List<String> to, RetryPolicy retry) {
    this("email", sender, from, to, retry);
  }

  /**
   * @param name the channel's name in metrics and logs ({@code email} for the configured one)
   */
  public EmailAlarmChannel(
      String name, JavaMailSender sender, String from, List<String> to, RetryPolicy retry) {
    if (to.isEmpty()) {
      throw new IllegalArgumentException("an email channel needs at least one recipient");
    }
    this.name = name;
    this.sender = sender;
    this.from = from;
    this.to = List.copyOf(to);
    this.retry = retry;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public RetryPolicy retryPolicy() {
    return retry;
  }

  @Override
  public void deliver(AlarmNotice notice) {
    SimpleMailMessage mail = new SimpleMailMessage();
    if (from != null && !from.isBlank()) {
      mail.setFrom(from);
    }
    mail.setTo(to.toArray(String[]::new));
    mail.setSubject(AlarmText.headline(notice));
    mail.setText(AlarmText.body(notice));
    try {
      sender.send(mail);
    } catch (MailAuthenticationException e) {
      throw new AlarmDeliveryException("SMTP authentication failed", false);
    } catch (MailParseException | MailPreparationException e) {
      throw new AlarmDeliveryException("mail could not be prepared: " + e.getMessage(), false);
    } catch (MailException e) {
      throw new AlarmDeliveryException(
          "mail not sent to " + to.size() + " recipient(s): " + e.getClass().getSimpleName(), true);
    }
  }
}
