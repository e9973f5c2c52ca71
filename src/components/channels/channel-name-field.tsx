// The channel name field of Create and Rename: shown as it will be stored while it is typed (lower case,
// as the server keeps it), with a count against the limit and the schema's own sentence beside it when
// the name cannot be used (issue 15 item 4), before anything is sent.
import { Hash } from 'lucide-react';
import { fieldProblem } from '../../../schemas/plain-error.ts';
import { channelName, NAME_MAX } from '../../../schemas/protocol/index.ts';
import { CharacterCount, FieldMessage, Input, Label } from '../ui/input.tsx';

/** What is wrong with a name typed so far, or null (an empty field says nothing until it is sent). */
export function channelNameProblem(name: string): string | null {
  return name === '' ? null : fieldProblem(channelName, name);
}

export function ChannelNameField({
  id,
  value,
  onChange,
  error,
  autoFocus,
}: {
  id: string;
  value: string;
  onChange: (name: string) => void;
  /** The server's answer, or the empty-name refusal of a submit. */
  error: string | null;
  autoFocus?: boolean;
}) {
  const message = channelNameProblem(value) ?? error;
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex items-baseline justify-between gap-2">
        <Label htmlFor={id}>Name</Label>
        <CharacterCount value={value.trim()} max={NAME_MAX} />
      </div>
      <div className="relative">
        <Hash className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-faint" aria-hidden />
        <Input
          id={id}
          value={value}
          onChange={(e) => onChange(e.target.value.toLowerCase())}
          placeholder="e.g. design-review"
          className="pl-8"
          autoFocus={autoFocus}
          autoComplete="off"
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? `${id}-problem` : undefined}
        />
      </div>
      {message ? (
        <FieldMessage id={`${id}-problem`} error>
          {message}
        </FieldMessage>
      ) : null}
    </div>
  );
}
