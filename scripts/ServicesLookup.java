import java.net.URL;
import java.util.Enumeration;

/**
 * Times the class path's walk for one service registration, as the first plug-in lookup of a command does: every jar
 * on the class path opened and asked for META-INF/services/<type>. Compile it, then run it as a class with the
 * launcher's DirectRunner class path (./h2beam --help builds it; Flink's jars left out, as the launcher does):
 *   javac -d /tmp/sl scripts/ServicesLookup.java
 *   java -XX:TieredStopAtLevel=1 \
 *     -cp "/tmp/sl:demo/target/classes:$(tr ':' '\n' < demo/target/h2beam.classpath | grep -v flink | paste -sd:)" \
 *     ServicesLookup
 * Not as a source file (`java ... scripts/ServicesLookup.java`): the JDK then compiles it first in the same JVM, which
 * warms up the code the walk runs, and the walk takes a few milliseconds instead of the 70-100 ms a command pays.
 */
public class ServicesLookup {
  public static void main(String[] args) throws Exception {
    String type = args.length > 0 ? args[0] : "dev.h2beam.pipelines.Command";
    long t0 = System.nanoTime();
    Enumeration<URL> found = ClassLoader.getSystemClassLoader().getResources("META-INF/services/" + type);
    int n = 0;
    while (found.hasMoreElements()) {
      found.nextElement();
      n++;
    }
    int entries = System.getProperty("java.class.path").split(":").length;
    System.out.printf("%d class-path entries, %d registration file(s) of %s, %.1f ms%n", entries, n, type,
        (System.nanoTime() - t0) / 1e6);
  }
}
