package dev.h2beam.transforms.safety;

/**
 * Letters of other alphabets that look like Latin ones (Cyrillic {@code і}, {@code р}, {@code о}; Greek {@code ο},
 * {@code ν}; Latin small capitals), folded to the Latin letter a reader takes them for, so that "іgnore рrevious" is
 * screened as "ignore previous". Full-width and mathematical letters need no entry: NFKC folds them first. A small
 * explicit table of the common look-alikes, not Unicode's whole confusables list: the screen only has to make the
 * cheap evasions fail, and every entry here maps a letter a model reads as the Latin one.
 */
final class LookAlikes {
  private LookAlikes() {}

  /** Each character of {@code FROM} and the Latin letter at the same place in {@code TO}. */
  private static final String FROM =
      // Cyrillic capitals and small letters
      "АВЕКМНОРСТХУІЈЅҮӀԀԚԜ" + "аеёорсухіїјѕһԁԛԝӏкмнтвпгь"
      // Greek capitals and small letters
      + "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ" + "αγεηικνορτυχω"
      // dotless i, script a and g, small capitals
      + "ıɑɡɢɪɴʀᴀᴄᴅᴇᴊᴋᴍᴏᴘᴛᴜᴠᴡᴢ";
  private static final String TO =
      "ABEKMHOPCTXYIJSYIDQW" + "aeeopcyxiijshdqwlkmhtbnrb"
      + "ABEZHIKMNOPTYX" + "ayenikvoptuxw"
      + "iagginracdejkmoptuvwz";

  /** The highest character folded: a character above it is looked up no further. */
  private static final char LAST;
  private static final char[] LATIN;

  static {
    if (FROM.length() != TO.length()) throw new AssertionError("LookAlikes: FROM and TO differ in length");
    char last = 0;
    for (int i = 0; i < FROM.length(); i++) last = (char) Math.max(last, FROM.charAt(i));
    LAST = last;
    LATIN = new char[LAST + 1];
    for (int i = 0; i < FROM.length(); i++) LATIN[FROM.charAt(i)] = TO.charAt(i);
  }

  /** The Latin letter {@code c} looks like, or {@code c} itself. */
  static char fold(char c) {
    if (c < 0x131 || c > LAST) return c; // ASCII and Latin-1 letters (é, ü) look like themselves
    char latin = LATIN[c];
    return latin == 0 ? c : latin;
  }

  /** {@code text} with each look-alike folded ({@link #fold}); the same string when it has none. */
  static String fold(String text) {
    int i = 0;
    while (i < text.length() && fold(text.charAt(i)) == text.charAt(i)) i++;
    if (i == text.length()) return text;
    char[] out = text.toCharArray();
    for (; i < out.length; i++) out[i] = fold(out[i]);
    return new String(out);
  }
}
