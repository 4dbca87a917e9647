import java.net.URL;
import java.util.Enumeration;

/**
 * Times the class path's walk for one service registration, as the first plug-in lookup of a command does: every jar
 * on the class path opened and asked for META-INF/services/<type>. Run with the launcher's DirectRunner class path
 * (./h2beam --help builds it; Flink's jars left out, as the launcher does):
 *   java -XX:TieredStopAtLevel=1 \
 *     -cp "demo/target/classes:$(tr ':' '\n' < demo/target/h2beam.classpath | grep -v flink | paste -sd:)" \
 *     scripts/ServicesLookup.java
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
