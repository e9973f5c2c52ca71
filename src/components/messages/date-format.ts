// Dates with date-fns (spec §5, §9): the default 'MMMM dd, yyyy', and a format string with an
// unescaped letter date-fns does not know is refused with a clear message instead of date-fns' own.
import { format } from 'date-fns';

export const DEFAULT_DATE_FORMAT = 'MMMM dd, yyyy';

export class DateFormatError extends Error {
  constructor(readonly pattern: string) {
    super(
      `The date format "${pattern}" has letters that are not date parts; put plain words in 'single quotes'`,
    );
    this.name = 'DateFormatError';
  }
}

/** `date` in `pattern` (date-fns tokens); throws DateFormatError for an unusable pattern. */
export function formatDate(date: Date | string | number, pattern: string = DEFAULT_DATE_FORMAT): string {
  const value = date instanceof Date ? date : new Date(date);
  if (Number.isNaN(value.getTime())) throw new RangeError('Not a valid date');
  try {
    return format(value, pattern);
  } catch (error) {
    if (error instanceof RangeError && /unescaped|use `|Format string/i.test(error.message)) {
      throw new DateFormatError(pattern);
    }
    throw error;
  }
}
