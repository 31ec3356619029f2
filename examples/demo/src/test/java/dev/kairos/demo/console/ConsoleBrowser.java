package dev.kairos.demo.console;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Headless Chromium from Debian's packages, driven through its chromedriver. Both paths are fixed
 * (README "Test"): the test fails, never skips, when they are missing, and Selenium never tries to
 * download a browser or driver of its own.
 */
final class ConsoleBrowser implements AutoCloseable {

  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

  private final ChromeDriver driver;
  private final Path screenshots;

  private ConsoleBrowser(ChromeDriver driver, Path screenshots) {
    this.driver = driver;
    this.screenshots = screenshots;
  }

  static ConsoleBrowser start(Path screenshots) throws IOException {
    for (Path required : new Path[] {CHROMIUM, CHROMEDRIVER}) {
      if (!Files.isExecutable(required)) {
        throw new IllegalStateException(
            required
                + " is missing: apt-get install -y chromium chromium-driver (README, \"Test\")");
      }
    }
    Files.createDirectories(screenshots);
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new",
        // Root in CI: Chromium's sandbox refuses to run as root.
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1280,900",
        "--lang=en-US");
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(CHROMEDRIVER.toFile())
            .usingAnyFreePort()
            .build();
    ChromeDriver driver = new ChromeDriver(service, options);
    driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
    return new ConsoleBrowser(driver, screenshots);
  }

  ChromeDriver driver() {
    return driver;
  }

  /** Saves the visible page as {@code <name>.png} in the screenshot folder. */
  void screenshot(String name) throws IOException {
    File shot = driver.getScreenshotAs(OutputType.FILE);
    Files.copy(
        shot.toPath(), screenshots.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
  }

  /** On a failure: the page as it was (URL, source, screenshot) for the one who reads the log. */
  void saveFailure(Path folder) {
    try {
      Files.createDirectories(folder);
      Files.writeString(
          folder.resolve("page.html"), driver.getCurrentUrl() + "\n" + driver.getPageSource());
      File shot = driver.getScreenshotAs(OutputType.FILE);
      Files.copy(shot.toPath(), folder.resolve("page.png"), StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException | RuntimeException e) {
      // The test's own failure is what matters; this is only help to read it.
      e.printStackTrace();
    }
  }

  @Override
  public void close() {
    driver.quit();
  }
}
